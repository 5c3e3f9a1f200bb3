#include "tests/backend/misbehaviour.h"

#include <fmt/format.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "conformance/backend/protocol.h"
#include "conformance/case/base64.h"

namespace funcspec::conformance::testing {

namespace {

void say(std::string_view message) {
  [[maybe_unused]] const ssize_t ignored = ::write(STDERR_FILENO, message.data(), message.size());
}

// Every element one unit off: values a judge must reject, in a reply the protocol accepts.
void shift_values(Json& output) {
  std::vector<std::uint8_t> bytes = *base64_decode(output["base64"].get<std::string>());
  const std::string dtype = output["dtype"].get<std::string>();
  if (dtype == "float64") {
    for (std::size_t i = 0; i + 8 <= bytes.size(); i += 8) {
      double value = 0;
      std::memcpy(&value, &bytes[i], 8);
      value += 1;
      std::memcpy(&bytes[i], &value, 8);
    }
  } else if (dtype == "float32") {
    for (std::size_t i = 0; i + 4 <= bytes.size(); i += 4) {
      float value = 0;
      std::memcpy(&value, &bytes[i], 4);
      value += 1;
      std::memcpy(&bytes[i], &value, 4);
    }
  } else if (dtype == "int64") {
    for (std::size_t i = 0; i + 8 <= bytes.size(); i += 8) bytes[i] = static_cast<std::uint8_t>(bytes[i] + 1);
  } else {
    for (std::uint8_t& b : bytes) b = b != 0 ? 0 : 1;
  }
  output["base64"] = base64_encode(bytes);
}

void malform(Json& reply, std::string_view how) {
  Json& outputs = reply["outputs"];
  if (how == "missing-outputs") {
    reply.erase("outputs");
  } else if (how == "wrong-id") {
    reply["id"] = reply["id"].get<std::uint64_t>() + 1000;
  } else if (how == "unknown-type") {
    reply["type"] = "results";
  } else if (how == "unknown-field") {
    reply["elapsed_ms"] = 3;
  } else if (how == "unknown-dtype") {
    outputs.begin().value()["dtype"] = "float16";
  } else if (how == "byte-count") {
    Json& first = outputs.begin().value();
    std::vector<std::uint8_t> bytes = *base64_decode(first["base64"].get<std::string>());
    bytes.push_back(0);
    first["base64"] = base64_encode(bytes);
  } else if (how == "extra-output") {
    outputs["bogus"] = outputs.begin().value();
  } else if (how == "missing-output") {
    outputs.erase(outputs.begin());
  } else if (how == "unknown-error-kind") {
    reply = Json{{"type", "error"}, {"id", reply["id"]}, {"kind", "out_of_cheese"}, {"message", "no"}};
  } else if (how == "not-object") {
    reply = Json::array({1, 2, 3});
  }
}

// False the first time (creating `path`), true once `path` exists: the backend was restarted.
bool is_restart(const std::string& path) {
  if (std::filesystem::exists(path)) return true;
  std::ofstream(path) << "started\n";
  return false;
}

// How many hellos came before this one (across the restarts of one run); counts this one in `path`.
int hellos_before(const std::string& path) {
  int before = 0;
  std::ifstream(path) >> before;
  std::ofstream(path) << before + 1 << "\n";
  return before;
}

}  // namespace

std::vector<std::string> split_blanks(std::string_view text) {
  std::vector<std::string> words;
  std::string word;
  for (char ch : text) {
    if (ch == ' ' || ch == '\t' || ch == '\n') {
      if (!word.empty()) words.push_back(std::move(word));
      word.clear();
    } else {
      word.push_back(ch);
    }
  }
  if (!word.empty()) words.push_back(std::move(word));
  return words;
}

Misbehaviour parse_misbehaviour(const std::vector<std::string>& words) {
  Misbehaviour m;
  for (const std::string& word : words) {
    if (word == "--fail-handshake") {
      m.fail_handshake = true;
    } else if (word == "--bad-hello") {
      m.bad_hello = true;
    } else if (word == "--exit-after-handshake") {
      m.exit_after_handshake = true;
    } else if (word.starts_with("--refuse-restart=")) {
      m.refuse_restart_marker = word.substr(word.find('=') + 1);
    } else if (word.starts_with("--refuse-first-restart=")) {
      m.refuse_first_restart_counter = word.substr(word.find('=') + 1);
    } else if (word.starts_with("--rename-on-restart=")) {
      m.rename_on_restart_marker = word.substr(word.find('=') + 1);
    } else if (word.starts_with("--") && word.find("-on=") != std::string::npos) {
      const std::size_t at = word.find("-on=");
      m.on_op[word.substr(2, at - 2)] = word.substr(at + 4);
    } else {
      throw std::invalid_argument("unknown misbehaviour '" + word + "'");
    }
  }
  return m;
}

ServerAnswer BrokenServer::answer(std::string_view line) {
  const Json request = Json::parse(line, nullptr, false);
  const std::string type = request.is_object() && request.contains("type") && request["type"].is_string()
                               ? request["type"].get<std::string>()
                               : "";
  if (type == "hello") {
    const bool restarted_refusing =
        !misbehaviour_.refuse_restart_marker.empty() && is_restart(misbehaviour_.refuse_restart_marker);
    const bool restarted_renaming =
        !misbehaviour_.rename_on_restart_marker.empty() && is_restart(misbehaviour_.rename_on_restart_marker);
    const bool first_restart_refusing = !misbehaviour_.refuse_first_restart_counter.empty() &&
                                        hellos_before(misbehaviour_.refuse_first_restart_counter) == 1;
    if (misbehaviour_.fail_handshake || restarted_refusing || first_restart_refusing) {
      say("broken backend: refusing the handshake on purpose\n");
      return {to_line(rejection_reply(std::nullopt, "this backend refuses every handshake")), true, 2};
    }
    ServerAnswer answer = server_.answer(line);
    if (misbehaviour_.bad_hello || restarted_renaming) {
      Json hello = Json::parse(answer.reply);
      if (misbehaviour_.bad_hello) hello["protocol"] = "funcspec-protocol/9";
      if (restarted_renaming) hello["name"] = "funcspec-reference-renamed";
      answer.reply = to_line(hello);
    }
    if (misbehaviour_.exit_after_handshake) {
      std::fputs((answer.reply + "\n").c_str(), stdout);
      std::fflush(stdout);
      say("broken backend: leaving right after the handshake\n");
      std::_Exit(0);
    }
    return answer;
  }
  if (type != "evaluate") return server_.answer(line);

  auto calls = [&](std::string_view what) -> std::string {
    const auto found = misbehaviour_.on_op.find(what);
    if (found == misbehaviour_.on_op.end()) return "";
    std::string op = found->second;
    std::string how;
    if (const std::size_t colon = op.find(':'); colon != std::string::npos) {
      how = op.substr(colon + 1);
      op = op.substr(0, colon);
    }
    for (const Json& step : request["case"]["program"]) {
      if (step["op"] == op) return how.empty() ? op : how;
    }
    return "";
  };

  if (!calls("crash").empty()) {
    say("broken backend: aborting on purpose\n");
    std::abort();
  }
  if (!calls("segv").empty()) {
    say("broken backend: raising SIGSEGV on purpose\n");
    std::signal(SIGSEGV, SIG_DFL);  // not a sanitizer's handler: die of the signal itself
    std::raise(SIGSEGV);
  }
  if (!calls("hang").empty()) {
    say("broken backend: hanging on purpose\n");
    for (;;) ::pause();
  }
  if (!calls("exit").empty()) std::_Exit(0);
  if (!calls("garbage").empty()) return {"this is not JSON {", false, 0};
  if (!calls("flood-stderr").empty()) {
    const std::string block(64 * 1024 - 1, 'x');
    for (int i = 0; i < 64; ++i) say(fmt::format("{}\n", block));
    say("broken backend: end of the flood\n");
  }

  ServerAnswer answer = server_.answer(line);
  const std::string how = calls("malformed");
  const bool lie = !calls("lie").empty();
  if (!how.empty() || lie) {
    Json reply = Json::parse(answer.reply);
    if (lie && reply["type"] == "result") {
      for (auto& [name, output] : reply["outputs"].items()) shift_values(output);
    }
    if (!how.empty()) malform(reply, how);
    answer.reply = to_line(reply);
  }
  return answer;
}

}  // namespace funcspec::conformance::testing
