#pragma once
// `plugin:PATH`: a shared library with the C entry point of include/funcspec/backend_plugin.h. The
// library is loaded here, and served by a worker forked from this process that relays the protocol
// over pipes, so the plug-in is isolated exactly as an external process is.
#include <memory>
#include <string>

#include "conformance/backend/process_backend.h"
#include "funcspec/backend_plugin.h"

namespace funcspec::conformance {

// Loads `path`, checks its entry point and ABI version, forks the worker and does the handshake.
// Throws BackendError naming what is wrong.
std::unique_ptr<Backend> make_plugin_backend(const std::string& spec, const std::string& path,
                                             ProcessOptions options = {});

// The worker's loop, in the forked child: serves `plugin` on stdin/stdout until a bye or the end of
// the input; returns the exit status.
int serve_plugin(const funcspec_backend_plugin_v1& plugin);

}  // namespace funcspec::conformance
