#pragma once
// The suite's side of docs/protocol.md over a child process: the client both `exec:` and `plugin:`
// backends are. It owns the child's life: the handshake, one request and one reply per case under
// the case's deadline, and after any fault (crash, timeout, protocol error) a fresh child with a fresh
// handshake before the next case.
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "conformance/backend/backend.h"
#include "conformance/backend/child_process.h"

namespace funcspec::conformance {

struct ProcessOptions {
  // How long a (re)started backend may take to answer the hello.
  std::chrono::milliseconds handshake_timeout{std::chrono::seconds(30)};
  // How long a backend may take to exit after a bye (or after a crash closed its stdout) before it
  // is killed.
  std::chrono::milliseconds exit_grace{std::chrono::seconds(2)};
};

// A restart that fails costs the case it was made for, and the next case tries again: a backend
// that is slow to start under load (a Python peer importing its framework while the machine is busy)
// loses one result, not the rest of the run. After this many failed restarts in a row the backend
// is given up, so one that can never start again does not cost a handshake timeout per case.
inline constexpr int kMostFailedRestartsInARow = 3;

// One case at a time: a suite running jobs in parallel gives each job its own backend.
class ProcessBackend : public Backend {
 public:
  using Launcher = std::function<std::unique_ptr<ChildProcess>()>;

  // Starts the child and does the handshake; throws BackendError naming `description` (the command
  // or the library), how the child ended and its stderr tail when that fails.
  ProcessBackend(std::string spec, std::string description, Launcher launcher, ProcessOptions options);
  // Says bye, waits for the child to exit, kills it after the grace period.
  ~ProcessBackend() override;

  std::string spec() const override { return spec_; }
  const Capabilities& capabilities() const override { return capabilities_; }
  ProgramResult evaluate(const Case& c, const EvaluateOptions& options) override;

  // The running child's pid (for tests), or -1 while none runs.
  pid_t child_pid() const { return child_ ? child_->pid() : -1; }

 private:
  Capabilities start();
  ProgramResult fault(Fault kind, std::string reason);
  std::string with_stderr(std::string message) const;

  std::string spec_;
  std::string description_;
  Launcher launcher_;
  ProcessOptions options_;
  Capabilities capabilities_;
  std::unique_ptr<ChildProcess> child_;  // null after a fault, until the next case restarts it
  int failed_restarts_in_a_row_ = 0;
  std::optional<std::string> unrecoverable_;  // why the backend was given up; every later case is a crash
  std::uint64_t next_id_ = 1;
};

}  // namespace funcspec::conformance
