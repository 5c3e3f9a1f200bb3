#pragma once
// NOTE: [backends]
// A backend is anything that evaluates conformance cases. The suite never talks to an
// implementation any other way, so the reference, a C plug-in and an external process in any
// language are judged by the same tests:
//   reference                  the reference engine, in this process (cpu)
//   plugin:path/to/lib.so      a shared library with the C entry point of
//                              include/funcspec/backend_plugin.h, served by a worker process
//                              forked after loading it (re-forked after a crash, a hang or a
//                              protocol error), so a misbehaving case costs that case only
//   exec:"command line"        an external process speaking docs/protocol.md (one JSON object
//                              per line on stdin/stdout); restarted after a crash, a hang or a
//                              protocol error
// A backend states its capabilities once (ops, transforms, dtypes, devices); a case needing
// anything outside them is *unsupported* without being sent, and a backend may also answer
// "unsupported" itself. Neither is ever a pass or a failure.
#include <chrono>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "conformance/case/case.h"
#include "conformance/case/judge.h"

namespace funcspec::conformance {

struct Capabilities {
  std::string name;     // the implementation's identity in reports: "funcspec-reference", "torch.func"
  std::string version;  // free text: "0.1", "torch 1.13.1"
  std::set<std::string, std::less<>> ops;         // op names of the catalogue it implements
  std::set<std::string, std::less<>> transforms;  // transform names as in case files ("vmap", "jacfwd")
  std::set<DType> dtypes;                         // never DType::Oracle
  std::set<std::string, std::less<>> devices;     // "cpu", "meta", "cuda"
  std::set<std::string, std::less<>> features{};  // of case format 1.1 (NOTE: [case features])
};

// Why `backend` cannot run `c` (the first missing op, transform, dtype or device, named), or
// nothing when it has everything the case needs.
std::optional<std::string> missing_capability(const Capabilities& capabilities, const Case& c);

// A backend that cannot be used at all: an unparsable spec, a library without the entry point, a
// process that fails the handshake. Per-case misbehaviour is never an exception: it is a
// ProgramResult with a Fault.
class BackendError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A backend that exists but cannot run on this machine (reference-cuda without a GPU): `funcspec
// check` exits with kBackendUnavailableExit, which ctest reads as a skip, not a failure.
class BackendUnavailable : public BackendError {
 public:
  using BackendError::BackendError;
};
inline constexpr int kBackendUnavailableExit = 77;

struct EvaluateOptions {
  // How long one case may take before it is abandoned as a Fault::Timeout. The in-process
  // reference cannot be interrupted and ignores it.
  std::chrono::milliseconds timeout{std::chrono::seconds(30)};
};

class Backend {
 public:
  virtual ~Backend() = default;
  // The --backend string that recreates this backend (for replay commands).
  virtual std::string spec() const = 0;
  virtual const Capabilities& capabilities() const = 0;
  // The case's results, its error kind, "unsupported", or a fault. Never throws for anything the
  // backend does; the expectation in `c` is the suite's business and is not sent to the backend.
  virtual ProgramResult evaluate(const Case& c, const EvaluateOptions& options) = 0;
};

// "reference", "plugin:PATH" or "exec:COMMAND" (the command split into words as a POSIX shell
// would, without expansions). Throws BackendError naming what is wrong.
std::unique_ptr<Backend> make_backend(std::string_view spec);

// The words of `command` as a POSIX shell splits them, without any expansion: unquoted blanks
// separate words; single quotes keep everything up to the next single quote; double quotes keep
// everything except that a backslash before ", \, $, ` or a newline quotes it; an unquoted
// backslash quotes the next character (and removes a newline). Throws BackendError for an
// unterminated quote or a trailing backslash.
std::vector<std::string> split_command_words(std::string_view command);

}  // namespace funcspec::conformance
