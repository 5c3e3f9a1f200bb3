#pragma once
// A child process the suite talks to over pipes: an exec backend's command, or a plug-in's worker
// forked from the suite. Every wait has a deadline, stderr is drained whenever the suite waits (so a
// chatty backend never blocks on a full pipe) and its last lines are kept to explain a crash, and
// writing to a child that died never raises SIGPIPE in the suite.
#include <sys/types.h>

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace funcspec::conformance {

using SteadyTime = std::chrono::steady_clock::time_point;

// "exited with status 3", "was killed by signal SIGSEGV (Segmentation fault)".
std::string describe_wait_status(int status);

class ChildProcess {
 public:
  // Runs `argv` (argv[0] looked up in PATH, as execvp does) in a new process group with stdin,
  // stdout and stderr on pipes. Throws BackendError when the program cannot be started.
  static std::unique_ptr<ChildProcess> spawn(const std::vector<std::string>& argv);
  // Forks a child in a new process group, with the same pipes, that runs `body` and exits with
  // its return value. The child closes every inherited close-on-exec descriptor first, as an exec
  // would, so it holds no pipe of another child open.
  static std::unique_ptr<ChildProcess> fork_function(const std::function<int()>& body);

  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;
  // Kills the process group and reaps the child if it is still there.
  ~ChildProcess();

  enum class Outcome {
    Replied,   // a whole line came back (or none was wanted)
    Closed,    // the child closed stdout or stdin: it exited or crashed
    TimedOut,  // the deadline passed first
    TooLong,   // the reply line grew past the limit without a newline
  };
  struct Exchange {
    Outcome outcome = Outcome::Replied;
    std::string line;  // without the newline
  };
  // Writes `message` and a newline, then, when `want_reply`, reads one line of at most `max_line`
  // bytes; all of it before `deadline`.
  Exchange exchange(std::string_view message, bool want_reply, SteadyTime deadline, std::size_t max_line);
  // Reads one line of at most `max_line` bytes, before `deadline`: a child that streams its output
  // (a `--jobs` worker). A deadline already past still takes a line that is buffered or readable now.
  Exchange read_line(SteadyTime deadline, std::size_t max_line);
  // Waits until one of `children` has a line or the end of its stdout to read, draining every
  // child's stderr meanwhile. Returns false at `deadline`, or early when a signal interrupts the wait
  // (the caller looks at what the signal asked for).
  static bool wait_for_output(const std::vector<ChildProcess*>& children, SteadyTime deadline);

  // Waits up to `grace` for the child to exit, then kills its process group, reaps it and says how
  // it ended (describe_wait_status). Idempotent.
  std::string finish(std::chrono::milliseconds grace);
  void kill_group();

  // The last lines the child wrote to stderr (at most `max_lines` lines, a few KiB), "" when none.
  std::string stderr_tail(std::size_t max_lines = 12) const;
  pid_t pid() const { return pid_; }

 private:
  ChildProcess(pid_t pid, int stdin_fd, int stdout_fd, int stderr_fd);
  Exchange transfer(std::string pending, bool want_reply, SteadyTime deadline, std::size_t max_line);
  void drain_stderr();
  void close_fds();

  pid_t pid_ = -1;
  int stdin_fd_ = -1;
  int stdout_fd_ = -1;
  int stderr_fd_ = -1;
  bool reaped_ = false;
  std::string exit_description_;
  std::string stdout_buffer_;  // bytes read past the last line returned
  std::string stderr_tail_;    // the last bytes of stderr
};

}  // namespace funcspec::conformance
