// make_backend: from a --backend string to a Backend.
#include <fmt/format.h>

#include "conformance/backend/backend.h"
#include "conformance/backend/exec_backend.h"
#include "conformance/backend/plugin_backend.h"
#include "conformance/backend/reference_backend.h"
#include "reference/backends/cuda/cuda_device.h"

namespace funcspec::conformance {

std::vector<std::string> split_command_words(std::string_view command) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;  // distinguishes an empty quoted word ('') from no word at all
  std::size_t i = 0;
  auto unterminated = [&](char quote, std::size_t at) {
    return BackendError(fmt::format("the command '{}' has an unterminated {} quote (opened at character {})", command,
                                    quote == '\'' ? "single" : "double", at + 1));
  };
  while (i < command.size()) {
    const char ch = command[i];
    if (ch == ' ' || ch == '\t' || ch == '\n') {
      if (in_word) words.push_back(std::move(word));
      word.clear();
      in_word = false;
      ++i;
    } else if (ch == '\\') {
      if (i + 1 == command.size())
        throw BackendError(fmt::format("the command '{}' ends with a backslash that quotes nothing", command));
      if (command[i + 1] != '\n') {
        word.push_back(command[i + 1]);
        in_word = true;
      }
      i += 2;
    } else if (ch == '\'') {
      const std::size_t close = command.find('\'', i + 1);
      if (close == std::string_view::npos) throw unterminated('\'', i);
      word.append(command.substr(i + 1, close - i - 1));
      in_word = true;
      i = close + 1;
    } else if (ch == '"') {
      const std::size_t open = i++;
      for (;;) {
        if (i == command.size()) throw unterminated('"', open);
        const char inner = command[i];
        if (inner == '"') break;
        if (inner == '\\' && i + 1 < command.size()) {
          const char next = command[i + 1];
          if (next == '"' || next == '\\' || next == '$' || next == '`') {
            word.push_back(next);
            i += 2;
            continue;
          }
          if (next == '\n') {
            i += 2;
            continue;
          }
        }
        word.push_back(inner);
        ++i;
      }
      in_word = true;
      ++i;
    } else {
      word.push_back(ch);
      in_word = true;
      ++i;
    }
  }
  if (in_word) words.push_back(std::move(word));
  return words;
}

std::unique_ptr<Backend> make_backend(std::string_view spec) {
  if (spec == "reference") return std::make_unique<ReferenceBackend>();
  if (spec == "reference-cuda") {
    if (cuda::device_count() == 0)
      throw BackendUnavailable(fmt::format("reference-cuda needs a usable GPU: {}", cuda::device_description()));
    return std::make_unique<ReferenceBackend>(Device::Cuda);
  }
  constexpr std::string_view kPlugin = "plugin:";
  constexpr std::string_view kExec = "exec:";
  if (spec.starts_with(kPlugin)) {
    const std::string path(spec.substr(kPlugin.size()));
    if (path.empty()) throw BackendError(fmt::format("'{}' names no library (expected plugin:PATH)", spec));
    return make_plugin_backend(std::string(spec), path);
  }
  if (spec.starts_with(kExec)) {
    const std::vector<std::string> words = split_command_words(spec.substr(kExec.size()));
    if (words.empty()) throw BackendError(fmt::format("'{}' names no command (expected exec:COMMAND)", spec));
    return make_exec_backend(std::string(spec), words);
  }
  throw BackendError(fmt::format(
      "unknown backend '{}' (expected reference, reference-cuda, plugin:PATH to a shared library, or exec:COMMAND)",
      spec));
}

}  // namespace funcspec::conformance
