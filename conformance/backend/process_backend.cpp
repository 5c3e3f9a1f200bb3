#include "conformance/backend/process_backend.h"

#include <fmt/format.h>

#include <utility>

#include "conformance/backend/protocol.h"

namespace funcspec::conformance {

namespace {

bool same_capabilities(const Capabilities& a, const Capabilities& b) {
  return a.name == b.name && a.version == b.version && a.ops == b.ops && a.transforms == b.transforms &&
         a.dtypes == b.dtypes && a.devices == b.devices;
}

std::string duration_text(std::chrono::milliseconds duration) {
  if (duration.count() % 1000 == 0) return fmt::format("{} s", duration.count() / 1000);
  return fmt::format("{} ms", duration.count());
}

}  // namespace

ProcessBackend::ProcessBackend(std::string spec, std::string description, Launcher launcher, ProcessOptions options)
    : spec_(std::move(spec)), description_(std::move(description)), launcher_(std::move(launcher)), options_(options) {
  capabilities_ = start();
}

ProcessBackend::~ProcessBackend() {
  if (!child_) return;
  const SteadyTime deadline = std::chrono::steady_clock::now() + options_.exit_grace;
  child_->exchange(bye_line(), false, deadline, 0);
  child_->finish(options_.exit_grace);
}

std::string ProcessBackend::with_stderr(std::string message) const {
  const std::string tail = child_ ? child_->stderr_tail() : "";
  if (tail.empty()) return message + " (its stderr is empty)";
  return fmt::format("{}; its stderr ended with:\n{}", message, tail);
}

Capabilities ProcessBackend::start() {
  child_ = launcher_();
  const SteadyTime deadline = std::chrono::steady_clock::now() + options_.handshake_timeout;
  const ChildProcess::Exchange hello = child_->exchange(hello_request_line(), true, deadline, kMaxReplyLineBytes);
  std::string problem;
  switch (hello.outcome) {
    case ChildProcess::Outcome::Replied: try { return parse_hello_reply(hello.line);
      } catch (const ProtocolError& e) {
        problem = e.what();
        child_->finish(options_.exit_grace);
      }
      break;
    case ChildProcess::Outcome::Closed:
      problem = fmt::format("it {} before answering the hello", child_->finish(options_.exit_grace));
      break;
    case ChildProcess::Outcome::TimedOut:
      child_->kill_group();
      child_->finish(std::chrono::milliseconds(0));
      problem = fmt::format("it did not answer the hello within {}", duration_text(options_.handshake_timeout));
      break;
    case ChildProcess::Outcome::TooLong:
      child_->finish(std::chrono::milliseconds(0));
      problem = "its hello reply is longer than 1 GiB";
      break;
  }
  const std::string message = with_stderr(fmt::format("{} failed the handshake: {}", description_, problem));
  child_.reset();
  throw BackendError(message);
}

ProgramResult ProcessBackend::fault(Fault kind, std::string reason) {
  ProgramResult result;
  result.fault = kind;
  result.broken = std::move(reason);
  child_.reset();  // restarted before the next case
  return result;
}

ProgramResult ProcessBackend::evaluate(const Case& c, const EvaluateOptions& options) {
  if (std::optional<std::string> missing = missing_capability(capabilities_, c)) {
    ProgramResult result;
    result.unsupported = std::move(*missing);
    return result;
  }
  if (unrecoverable_) {
    ProgramResult result;
    result.fault = Fault::Crash;
    result.broken = *unrecoverable_;
    return result;
  }
  if (!child_) {
    std::optional<std::string> restart_failure;
    try {
      const Capabilities restarted = start();
      failed_restarts_in_a_row_ = 0;
      if (!same_capabilities(restarted, capabilities_)) {
        child_.reset();
        unrecoverable_ = fmt::format(
            "{} was restarted after a fault but now states different capabilities than at its first handshake; "
            "no further case is sent to it",
            description_);
      }
    } catch (const BackendError& e) {
      if (++failed_restarts_in_a_row_ >= kMostFailedRestartsInARow) {
        unrecoverable_ = fmt::format(
            "{} could not be restarted after a fault ({} tries in a row), so no further case is sent to it: {}",
            description_, failed_restarts_in_a_row_, e.what());
      } else {
        restart_failure = fmt::format(
            "{} could not be restarted after a fault (try {} of {} in a row; the next case tries again): {}",
            description_, failed_restarts_in_a_row_, kMostFailedRestartsInARow, e.what());
      }
    }
    if (unrecoverable_ || restart_failure) {
      ProgramResult result;
      result.fault = Fault::Crash;
      result.broken = unrecoverable_ ? *unrecoverable_ : *restart_failure;
      return result;
    }
  }

  const std::uint64_t id = next_id_++;
  const SteadyTime deadline = std::chrono::steady_clock::now() + options.timeout;
  const ChildProcess::Exchange reply =
      child_->exchange(evaluate_request_line(c, id), true, deadline, kMaxReplyLineBytes);
  switch (reply.outcome) {
    case ChildProcess::Outcome::Replied: {
      ProgramResult result = parse_evaluate_reply(reply.line, id, c);
      if (result.fault != Fault::None) {
        child_->kill_group();
        child_->finish(std::chrono::milliseconds(0));
        child_.reset();
      }
      return result;
    }
    case ChildProcess::Outcome::Closed: {
      const std::string how = child_->finish(options_.exit_grace);
      return fault(Fault::Crash, with_stderr(fmt::format("{} {} while evaluating case '{}' (request {})", description_,
                                                         how, c.id, id)));
    }
    case ChildProcess::Outcome::TimedOut: {
      child_->kill_group();
      child_->finish(std::chrono::milliseconds(0));
      return fault(Fault::Timeout,
                   with_stderr(fmt::format("{} did not answer case '{}' (request {}) within {}; its process group "
                                           "was killed and it is restarted for the next case",
                                           description_, c.id, id, duration_text(options.timeout))));
    }
    case ChildProcess::Outcome::TooLong: {
      child_->kill_group();
      child_->finish(std::chrono::milliseconds(0));
      return fault(Fault::Protocol, fmt::format("{} answered case '{}' (request {}) with a line longer than {} bytes",
                                                description_, c.id, id, kMaxReplyLineBytes));
    }
  }
  return fault(Fault::Crash, "unreachable");
}

}  // namespace funcspec::conformance
