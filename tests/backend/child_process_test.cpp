// The child-process transport on its own: line limits, exit descriptions, the stderr tail.
#include "conformance/backend/child_process.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include "conformance/backend/backend.h"

namespace funcspec::conformance {
namespace {

SteadyTime in(std::chrono::milliseconds duration) { return std::chrono::steady_clock::now() + duration; }

TEST(ChildProcess, ReplyLongerThanTheLimitIsTooLong) {
  const auto child = ChildProcess::spawn({"sh", "-c", "head -c 100000 /dev/zero | tr '\\0' x; sleep 10"});
  const auto reply = child->exchange("hello", true, in(std::chrono::seconds(5)), 1000);
  EXPECT_EQ(reply.outcome, ChildProcess::Outcome::TooLong);
}

TEST(ChildProcess, ReadsOneLineAndKeepsTheRest) {
  const auto child = ChildProcess::spawn({"sh", "-c", "read line; printf 'one\\ntwo\\n'; sleep 10"});
  const auto first = child->exchange("go", true, in(std::chrono::seconds(5)), 1000);
  ASSERT_EQ(first.outcome, ChildProcess::Outcome::Replied);
  EXPECT_EQ(first.line, "one");
}

TEST(ChildProcess, SilenceIsATimeout) {
  const auto child = ChildProcess::spawn({"sh", "-c", "sleep 10"});
  const auto start = std::chrono::steady_clock::now();
  const auto reply = child->exchange("hello", true, in(std::chrono::milliseconds(100)), 1000);
  EXPECT_EQ(reply.outcome, ChildProcess::Outcome::TimedOut);
  child->kill_group();
  EXPECT_EQ(child->finish(std::chrono::milliseconds(0)), "was killed by signal SIGKILL (Killed)");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(3));
}

TEST(ChildProcess, DeathBySignalIsNamed) {
  const auto child = ChildProcess::spawn({"sh", "-c", "kill -TERM $$"});
  EXPECT_EQ(child->finish(std::chrono::seconds(5)), "was killed by signal SIGTERM (Terminated)");
}

TEST(ChildProcess, ExitStatusIsNamed) {
  const auto child = ChildProcess::spawn({"sh", "-c", "exit 7"});
  EXPECT_EQ(child->finish(std::chrono::seconds(5)), "exited with status 7");
}

TEST(ChildProcess, StderrTailKeepsTheLastLines) {
  const auto child =
      ChildProcess::spawn({"sh", "-c", "i=0; while [ $i -lt 100 ]; do i=$((i+1)); echo line$i >&2; done"});
  child->finish(std::chrono::seconds(5));
  EXPECT_EQ(child->stderr_tail(3), "line98\nline99\nline100");
}

TEST(ChildProcess, WritingToADeadChildIsClosedNotSigpipe) {
  const auto child = ChildProcess::spawn({"true"});
  child->finish(std::chrono::seconds(5));
  const auto reply = child->exchange(std::string(1 << 20, 'x'), true, in(std::chrono::seconds(5)), 1000);
  EXPECT_EQ(reply.outcome, ChildProcess::Outcome::Closed);
}

TEST(ChildProcess, ForkedFunctionSpeaksOverThePipes) {
  const auto child = ChildProcess::fork_function([] {
    char buffer[16];
    const ssize_t got = ::read(0, buffer, sizeof buffer);
    [[maybe_unused]] const ssize_t put = ::write(1, "pong\n", 5);
    return got > 0 ? 0 : 1;
  });
  const auto reply = child->exchange("ping", true, in(std::chrono::seconds(5)), 1000);
  ASSERT_EQ(reply.outcome, ChildProcess::Outcome::Replied);
  EXPECT_EQ(reply.line, "pong");
  EXPECT_EQ(child->finish(std::chrono::seconds(5)), "exited with status 0");
}

TEST(ChildProcess, ProgramThatCannotRunIsABackendError) {
  EXPECT_THROW(ChildProcess::spawn({"/nonexistent/program"}), BackendError);
}

}  // namespace
}  // namespace funcspec::conformance
