#include "conformance/backend/protocol_server.h"

#include <fmt/format.h>
#include <sys/types.h>

#include <cstdlib>

#include "conformance/backend/protocol.h"

namespace funcspec::conformance {

ServerAnswer ProtocolServer::answer(std::string_view request_line) {
  ServerAnswer out;
  Request request;
  try {
    request = parse_request(request_line);
  } catch (const ProtocolError& e) {
    out.reply = to_line(rejection_reply(e.id(), e.what()));
    if (!greeted_) {
      // Whatever came first was not a hello this backend can answer: refuse and leave.
      out.finished = true;
      out.exit_status = 2;
    }
    return out;
  }
  switch (request.type) {
    case RequestType::Hello:
      greeted_ = true;
      out.reply = to_line(hello_reply(backend_.capabilities()));
      break;
    case RequestType::Bye: out.finished = true; break;
    case RequestType::Evaluate:
      if (!greeted_) {
        out.reply = to_line(rejection_reply(request.id, "an evaluate request before the hello"));
        out.finished = true;
        out.exit_status = 2;
        break;
      }
      out.reply = to_line(evaluate_reply(request.id, backend_.evaluate(request.c, EvaluateOptions{})));
      break;
  }
  return out;
}

int serve_protocol(Backend& backend, std::FILE* in, std::FILE* out) {
  ProtocolServer server(backend);
  char* buffer = nullptr;
  std::size_t capacity = 0;
  for (;;) {
    const ssize_t length = ::getline(&buffer, &capacity, in);
    if (length <= 0) break;  // the suite went away without a bye
    std::string_view line(buffer, static_cast<std::size_t>(length));
    if (line.back() == '\n') line.remove_suffix(1);
    const ServerAnswer answer = server.answer(line);
    if (!answer.reply.empty()) {
      std::fputs(answer.reply.c_str(), out);
      std::fputc('\n', out);
      std::fflush(out);
    }
    if (answer.finished) {
      std::free(buffer);
      return answer.exit_status;
    }
  }
  std::free(buffer);
  return 0;
}

}  // namespace funcspec::conformance
