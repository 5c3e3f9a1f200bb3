#pragma once
// `exec:COMMAND`: an external process speaking docs/protocol.md on stdin/stdout.
#include <memory>
#include <string>
#include <vector>

#include "conformance/backend/process_backend.h"

namespace funcspec::conformance {

// Starts `argv` and does the handshake. `spec` is the --backend string that recreates it. Throws
// BackendError when the command cannot run or fails the handshake.
std::unique_ptr<Backend> make_exec_backend(const std::string& spec, const std::vector<std::string>& argv,
                                           ProcessOptions options = {});

}  // namespace funcspec::conformance
