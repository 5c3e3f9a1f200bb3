#include "conformance/backend/child_process.h"

#include <dirent.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <thread>

#include "conformance/backend/backend.h"

namespace funcspec::conformance {

namespace {

// How much of the child's stderr is kept: enough for a stack trace's last lines.
constexpr std::size_t kStderrKeep = 16 * 1024;
constexpr std::size_t kReadChunk = 64 * 1024;

std::string errno_text(int error) { return std::strerror(error); }

struct Pipe {
  int read = -1;
  int write = -1;
};

Pipe make_pipe() {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) throw BackendError(fmt::format("cannot create a pipe: {}", errno_text(errno)));
  return {fds[0], fds[1]};
}

void close_fd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

void set_nonblocking(int fd) { ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK); }

// Puts `fd` on `target` in the child, without close-on-exec.
void move_to(int fd, int target) {
  if (fd == target) {
    ::fcntl(fd, F_SETFD, 0);
  } else {
    ::dup2(fd, target);
  }
}

// The child's half of the setup, after fork: its own process group, the pipes on 0/1/2, and the
// default signal state (the suite may have blocked SIGPIPE on the forking thread).
void set_up_child(const Pipe& in, const Pipe& out, const Pipe& err) {
  ::setpgid(0, 0);
  move_to(in.read, STDIN_FILENO);
  move_to(out.write, STDOUT_FILENO);
  move_to(err.write, STDERR_FILENO);
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  ::signal(SIGPIPE, SIG_DFL);
}

// What an exec would do to the forked worker's descriptors: close those marked close-on-exec
// (the suite's other pipes), keep the rest (descriptors a plug-in opened for itself).
void close_cloexec_descriptors() {
  std::vector<int> fds;
  if (DIR* dir = ::opendir("/proc/self/fd")) {
    const int own = ::dirfd(dir);
    while (const dirent* entry = ::readdir(dir)) {
      if (entry->d_name[0] < '0' || entry->d_name[0] > '9') continue;
      const int fd = std::atoi(entry->d_name);
      if (fd > STDERR_FILENO && fd != own) fds.push_back(fd);
    }
    ::closedir(dir);
  } else {
    for (int fd = STDERR_FILENO + 1; fd < 4096; ++fd) fds.push_back(fd);
  }
  for (int fd : fds) {
    const int flags = ::fcntl(fd, F_GETFD);
    if (flags >= 0 && (flags & FD_CLOEXEC) != 0) ::close(fd);
  }
}

// write() with SIGPIPE blocked on this thread; a SIGPIPE raised by the write is consumed, so a
// child that died only makes the write fail with EPIPE.
ssize_t write_without_sigpipe(int fd, const char* data, std::size_t size) {
  sigset_t pipe_only;
  sigemptyset(&pipe_only);
  sigaddset(&pipe_only, SIGPIPE);
  sigset_t previous;
  ::pthread_sigmask(SIG_BLOCK, &pipe_only, &previous);
  sigset_t pending;
  sigemptyset(&pending);
  ::sigpending(&pending);
  const bool was_pending = sigismember(&pending, SIGPIPE) == 1;
  const ssize_t written = ::write(fd, data, size);
  const int error = errno;
  if (written < 0 && error == EPIPE && !was_pending) {
    const timespec no_wait{0, 0};
    ::sigtimedwait(&pipe_only, nullptr, &no_wait);
  }
  ::pthread_sigmask(SIG_SETMASK, &previous, nullptr);
  errno = error;
  return written;
}

int milliseconds_until(SteadyTime deadline) {
  const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
  return static_cast<int>(std::clamp<std::int64_t>(left.count(), 0, 60'000));
}

struct ChildPipes {
  Pipe in, out, err;
  void close_all() {
    for (Pipe* p : {&in, &out, &err}) {
      close_fd(p->read);
      close_fd(p->write);
    }
  }
};

}  // namespace

std::string describe_wait_status(int status) {
  if (WIFEXITED(status)) return fmt::format("exited with status {}", WEXITSTATUS(status));
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    const char* abbreviation = ::sigabbrev_np(sig);
    const char* description = ::strsignal(sig);
    return fmt::format("was killed by signal SIG{} ({})", abbreviation != nullptr ? abbreviation : "?",
                       description != nullptr ? description : "unknown");
  }
  return fmt::format("ended with wait status {}", status);
}

ChildProcess::ChildProcess(pid_t pid, int stdin_fd, int stdout_fd, int stderr_fd)
    : pid_(pid), stdin_fd_(stdin_fd), stdout_fd_(stdout_fd), stderr_fd_(stderr_fd) {
  set_nonblocking(stdin_fd_);
  set_nonblocking(stdout_fd_);
  set_nonblocking(stderr_fd_);
}

std::unique_ptr<ChildProcess> ChildProcess::spawn(const std::vector<std::string>& argv) {
  if (argv.empty()) throw BackendError("an empty command");
  // Everything the child needs is prepared before fork: between fork and exec only
  // async-signal-safe calls are allowed (the suite may run other threads).
  std::vector<char*> args;
  for (const std::string& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  ChildPipes pipes{make_pipe(), make_pipe(), make_pipe()};
  Pipe exec_error = make_pipe();  // written only when exec fails; closed by a successful exec
  const pid_t pid = ::fork();
  if (pid < 0) {
    const int error = errno;
    pipes.close_all();
    close_fd(exec_error.read);
    close_fd(exec_error.write);
    throw BackendError(fmt::format("cannot fork to start '{}': {}", argv[0], errno_text(error)));
  }
  if (pid == 0) {
    set_up_child(pipes.in, pipes.out, pipes.err);
    ::execvp(args[0], args.data());
    const int error = errno;
    [[maybe_unused]] const ssize_t ignored = ::write(exec_error.write, &error, sizeof error);
    ::_exit(127);
  }
  ::setpgid(pid, pid);  // also here, so that a kill of the group can never precede the child's own call
  close_fd(exec_error.write);
  int error = 0;
  ssize_t got = 0;
  do {
    got = ::read(exec_error.read, &error, sizeof error);
  } while (got < 0 && errno == EINTR);
  close_fd(exec_error.read);
  if (got == static_cast<ssize_t>(sizeof error)) {
    pipes.close_all();
    int status = 0;
    ::waitpid(pid, &status, 0);
    throw BackendError(fmt::format("cannot run '{}': {}", argv[0], errno_text(error)));
  }
  close_fd(pipes.in.read);
  close_fd(pipes.out.write);
  close_fd(pipes.err.write);
  return std::unique_ptr<ChildProcess>(new ChildProcess(pid, pipes.in.write, pipes.out.read, pipes.err.read));
}

std::unique_ptr<ChildProcess> ChildProcess::fork_function(const std::function<int()>& body) {
  ChildPipes pipes{make_pipe(), make_pipe(), make_pipe()};
  std::fflush(nullptr);  // nothing buffered in the suite's stdio may be written twice
  const pid_t pid = ::fork();
  if (pid < 0) {
    const int error = errno;
    pipes.close_all();
    throw BackendError(fmt::format("cannot fork a worker: {}", errno_text(error)));
  }
  if (pid == 0) {
    set_up_child(pipes.in, pipes.out, pipes.err);
    close_cloexec_descriptors();
    int status = 3;
    try {
      status = body();
    } catch (...) {
      static constexpr char kMessage[] = "funcspec worker: the worker's body threw\n";
      [[maybe_unused]] const ssize_t ignored = ::write(STDERR_FILENO, kMessage, sizeof kMessage - 1);
    }
    // _exit: the suite's atexit handlers and static destructors belong to the suite, not the worker.
    ::_exit(status);
  }
  ::setpgid(pid, pid);
  close_fd(pipes.in.read);
  close_fd(pipes.out.write);
  close_fd(pipes.err.write);
  return std::unique_ptr<ChildProcess>(new ChildProcess(pid, pipes.in.write, pipes.out.read, pipes.err.read));
}

ChildProcess::~ChildProcess() {
  if (!reaped_) finish(std::chrono::milliseconds(0));
  close_fds();
}

void ChildProcess::close_fds() {
  close_fd(stdin_fd_);
  close_fd(stdout_fd_);
  close_fd(stderr_fd_);
}

void ChildProcess::drain_stderr() {
  if (stderr_fd_ < 0) return;
  char chunk[kReadChunk];
  for (;;) {
    const ssize_t got = ::read(stderr_fd_, chunk, sizeof chunk);
    if (got > 0) {
      stderr_tail_.append(chunk, static_cast<std::size_t>(got));
      if (stderr_tail_.size() > 2 * kStderrKeep) stderr_tail_.erase(0, stderr_tail_.size() - kStderrKeep);
      continue;
    }
    if (got < 0 && errno == EINTR) continue;
    if (got == 0) close_fd(stderr_fd_);  // the child (and all it started) closed stderr
    return;
  }
}

ChildProcess::Exchange ChildProcess::exchange(std::string_view message, bool want_reply, SteadyTime deadline,
                                              std::size_t max_line) {
  std::string pending(message);
  pending.push_back('\n');
  return transfer(std::move(pending), want_reply, deadline, max_line);
}

ChildProcess::Exchange ChildProcess::read_line(SteadyTime deadline, std::size_t max_line) {
  return transfer("", true, deadline, max_line);
}

bool ChildProcess::wait_for_output(const std::vector<ChildProcess*>& children, SteadyTime deadline) {
  for (;;) {
    std::vector<pollfd> fds;
    for (ChildProcess* child : children) {
      // A whole line already read, or stdout already closed: the caller has something to take.
      if (child->stdout_fd_ < 0 || child->stdout_buffer_.find('\n') != std::string::npos) return true;
      fds.push_back({child->stdout_fd_, POLLIN, 0});
      fds.push_back({child->stderr_fd_, POLLIN, 0});  // a closed stderr (-1) is ignored by poll
    }
    const int ready = ::poll(fds.data(), fds.size(), milliseconds_until(deadline));
    if (ready < 0) return false;  // EINTR: a signal the caller may have to act on
    if (ready == 0) {
      if (std::chrono::steady_clock::now() >= deadline) return false;
      continue;
    }
    for (std::size_t k = 0; k < children.size(); ++k) {
      if (fds[2 * k + 1].revents != 0) children[k]->drain_stderr();
      if (fds[2 * k].revents != 0) return true;
    }
  }
}

ChildProcess::Exchange ChildProcess::transfer(std::string pending, bool want_reply, SteadyTime deadline,
                                              std::size_t max_line) {
  Exchange result;
  std::size_t written = 0;
  bool polled = false;
  char chunk[kReadChunk];
  for (;;) {
    if (written == pending.size()) {
      if (!want_reply) return result;
      const std::size_t newline = stdout_buffer_.find('\n');
      if (newline != std::string::npos) {
        result.line = stdout_buffer_.substr(0, newline);
        stdout_buffer_.erase(0, newline + 1);
        return result;
      }
    }
    if (stdout_buffer_.size() > max_line) {
      stdout_buffer_.clear();
      result.outcome = Outcome::TooLong;
      return result;
    }
    if (polled && std::chrono::steady_clock::now() >= deadline) {
      result.outcome = Outcome::TimedOut;
      return result;
    }
    polled = true;
    pollfd fds[3];
    nfds_t count = 0;
    const bool writing = written < pending.size() && stdin_fd_ >= 0;
    if (writing) fds[count++] = {stdin_fd_, POLLOUT, 0};
    const nfds_t stdout_at = count;
    if (want_reply && stdout_fd_ >= 0) fds[count++] = {stdout_fd_, POLLIN, 0};
    const nfds_t stderr_at = count;
    if (stderr_fd_ >= 0) fds[count++] = {stderr_fd_, POLLIN, 0};
    if ((written < pending.size() && stdin_fd_ < 0) || (want_reply && stdout_fd_ < 0)) {
      result.outcome = Outcome::Closed;
      return result;
    }
    const int ready = ::poll(fds, count, milliseconds_until(deadline));
    if (ready < 0 && errno != EINTR) {
      result.outcome = Outcome::Closed;
      return result;
    }
    if (ready <= 0) continue;
    if (stderr_at < count && fds[stderr_at].revents != 0) drain_stderr();
    if (writing && fds[0].revents != 0) {
      const ssize_t n = write_without_sigpipe(stdin_fd_, pending.data() + written, pending.size() - written);
      if (n > 0) {
        written += static_cast<std::size_t>(n);
      } else if (n < 0 && errno != EAGAIN && errno != EINTR) {
        close_fd(stdin_fd_);  // EPIPE: the child no longer reads
        result.outcome = Outcome::Closed;
        return result;
      }
    }
    if (stdout_at < count && want_reply && fds[stdout_at].revents != 0) {
      const ssize_t n = ::read(stdout_fd_, chunk, sizeof chunk);
      if (n > 0) {
        stdout_buffer_.append(chunk, static_cast<std::size_t>(n));
      } else if (n == 0) {
        close_fd(stdout_fd_);
        // A last line without its newline is still not a reply: the child is gone.
        result.outcome = Outcome::Closed;
        return result;
      }
    }
  }
}

void ChildProcess::kill_group() {
  if (reaped_) return;
  ::kill(-pid_, SIGKILL);
  ::kill(pid_, SIGKILL);  // in case it left its group
}

std::string ChildProcess::finish(std::chrono::milliseconds grace) {
  if (reaped_) return exit_description_;
  // End of input tells a backend that is still reading to leave (docs/protocol.md, "Ending").
  close_fd(stdin_fd_);
  const SteadyTime deadline = std::chrono::steady_clock::now() + grace;
  int status = 0;
  for (;;) {
    const pid_t got = ::waitpid(pid_, &status, WNOHANG);
    if (got == pid_) break;
    if (got < 0 && errno != EINTR) {
      exit_description_ = fmt::format("could not be waited for ({})", errno_text(errno));
      reaped_ = true;
      return exit_description_;
    }
    if (std::chrono::steady_clock::now() >= deadline) {
      kill_group();
      while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
      }
      break;
    }
    // Keep the child's stderr flowing while it exits, and pick up its last words.
    pollfd fd{stderr_fd_, POLLIN, 0};
    if (stderr_fd_ >= 0 && ::poll(&fd, 1, 5) > 0) {
      drain_stderr();
    } else if (stderr_fd_ < 0) {
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
  }
  drain_stderr();
  // The child is gone; what it started may linger in its group.
  ::kill(-pid_, SIGKILL);
  reaped_ = true;
  exit_description_ = describe_wait_status(status);
  return exit_description_;
}

std::string ChildProcess::stderr_tail(std::size_t max_lines) const {
  std::string_view text = stderr_tail_;
  if (text.size() > kStderrKeep) text.remove_prefix(text.size() - kStderrKeep);
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.remove_suffix(1);
  std::size_t start = text.size();
  for (std::size_t lines = 0; lines < max_lines && start > 0; ++lines) {
    const std::size_t newline = text.rfind('\n', start - 1);
    if (newline == std::string_view::npos) {
      start = 0;
      break;
    }
    start = newline;
  }
  std::string_view tail = text.substr(start);
  if (!tail.empty() && tail.front() == '\n') tail.remove_prefix(1);
  // A single enormous line is cut from the front too.
  constexpr std::size_t kMaxTailChars = 4000;
  if (tail.size() > kMaxTailChars) return "..." + std::string(tail.substr(tail.size() - kMaxTailChars));
  return std::string(tail);
}

}  // namespace funcspec::conformance
