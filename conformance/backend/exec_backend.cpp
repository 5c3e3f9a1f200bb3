#include "conformance/backend/exec_backend.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace funcspec::conformance {

std::unique_ptr<Backend> make_exec_backend(const std::string& spec, const std::vector<std::string>& argv,
                                           ProcessOptions options) {
  if (argv.empty()) throw BackendError(fmt::format("'{}' names no command", spec));
  const std::string description = fmt::format("the backend command '{}'", fmt::join(argv, " "));
  return std::make_unique<ProcessBackend>(
      spec, description, [argv] { return ChildProcess::spawn(argv); }, options);
}

}  // namespace funcspec::conformance
