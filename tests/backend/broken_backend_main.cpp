// funcspec-broken-backend: the reference over the protocol, misbehaving as its arguments say
// (tests/backend/misbehaviour.h).
#include <cstdio>
#include <exception>

#include "tests/backend/misbehaviour.h"

int main(int argc, char** argv) {
  using namespace funcspec::conformance;
  try {
    testing::BrokenServer server(testing::parse_misbehaviour(std::vector<std::string>(argv + 1, argv + argc)));
    char* buffer = nullptr;
    std::size_t capacity = 0;
    for (;;) {
      const ssize_t length = ::getline(&buffer, &capacity, stdin);
      if (length <= 0) break;
      std::string_view line(buffer, static_cast<std::size_t>(length));
      if (line.back() == '\n') line.remove_suffix(1);
      const ServerAnswer answer = server.answer(line);
      if (!answer.reply.empty()) {
        std::fputs(answer.reply.c_str(), stdout);
        std::fputc('\n', stdout);
        std::fflush(stdout);
      }
      if (answer.finished) {
        std::free(buffer);
        return answer.exit_status;
      }
    }
    std::free(buffer);
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "funcspec-broken-backend: %s\n", e.what());
    return 1;
  }
}
