// Isolation: a backend that crashes, hangs, breaks the protocol or lies costs exactly that case,
// with the right fault and a clear reason, and the next case is evaluated correctly.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <stdlib.h>

#include <chrono>
#include <filesystem>

#include "conformance/backend/exec_backend.h"
#include "conformance/backend/plugin_backend.h"
#include "tests/backend/backend_test_support.h"
#include "tests/backend/misbehaviour.h"

namespace funcspec::conformance {
namespace {

using testing::contains;

const EvaluateOptions kPatient{std::chrono::seconds(20)};

// The broken backend through exec: or plugin:, misbehaving as `words` say.
class BrokenBackend : public ::testing::TestWithParam<std::string> {
 protected:
  std::unique_ptr<Backend> make(const std::string& words) {
    if (GetParam() == "exec") {
      std::vector<std::string> argv{FUNCSPEC_BROKEN_BACKEND};
      for (std::string& word : testing::split_blanks(words)) argv.push_back(std::move(word));
      return make_exec_backend("exec:broken", argv);
    }
    ::setenv("FUNCSPEC_BROKEN_PLUGIN", words.c_str(), 1);
    return make_plugin_backend("plugin:broken", FUNCSPEC_BROKEN_PLUGIN);
  }

  // The misbehaving case gives `fault` with `fragment` in its reason; the next case passes.
  void expect_fault_then_recovery(Backend& backend, Fault fault, const std::string& fragment,
                                  const EvaluateOptions& options = kPatient) {
    const ProgramResult broken = backend.evaluate(testing::mul_case(), options);
    EXPECT_EQ(broken.fault, fault) << broken.broken;
    EXPECT_TRUE(contains(broken.broken, fragment)) << broken.broken;
    const Evaluation next = judge(testing::add_case(), backend.evaluate(testing::add_case(), kPatient));
    EXPECT_EQ(next.verdict, Verdict::Pass) << next.reason;
  }

  void expect_protocol_fault(const std::string& how, const std::string& fragment) {
    const auto backend = make("--malformed-on=mul:" + how);
    expect_fault_then_recovery(*backend, Fault::Protocol, fragment);
  }
};

TEST_P(BrokenBackend, HealthyCasesPass) {
  const auto backend = make("--crash-on=mul");
  for (int i = 0; i < 3; ++i) {
    const Evaluation ev = judge(testing::add_case(), backend->evaluate(testing::add_case(), kPatient));
    EXPECT_EQ(ev.verdict, Verdict::Pass) << ev.reason;
  }
}

TEST_P(BrokenBackend, AbortIsACrashWithSignalAndStderr) {
  const auto backend = make("--crash-on=mul");
  expect_fault_then_recovery(*backend, Fault::Crash, "was killed by signal SIGABRT");
  const ProgramResult again = backend->evaluate(testing::mul_case(), kPatient);
  EXPECT_TRUE(contains(again.broken, "aborting on purpose")) << again.broken;
}

TEST_P(BrokenBackend, SegfaultIsACrash) {
  const auto backend = make("--segv-on=mul");
  expect_fault_then_recovery(*backend, Fault::Crash, "was killed by signal SIGSEGV");
}

TEST_P(BrokenBackend, SilentExitIsACrashWithItsStatus) {
  const auto backend = make("--exit-on=mul");
  expect_fault_then_recovery(*backend, Fault::Crash, "exited with status 0 while evaluating case 'BACKEND/mul'");
}

TEST_P(BrokenBackend, HangIsATimeoutAndCostsOnlyItsDeadline) {
  const auto backend = make("--hang-on=mul");
  const auto start = std::chrono::steady_clock::now();
  expect_fault_then_recovery(*backend, Fault::Timeout, "did not answer case 'BACKEND/mul' (request 1) within 300 ms",
                             EvaluateOptions{std::chrono::milliseconds(300)});
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
}

TEST_P(BrokenBackend, NonJsonLineIsAProtocolError) {
  const auto backend = make("--garbage-on=mul");
  expect_fault_then_recovery(*backend, Fault::Protocol, "is not JSON");
}

TEST_P(BrokenBackend, MissingFieldIsAProtocolError) { expect_protocol_fault("missing-outputs", "has no 'outputs'"); }
TEST_P(BrokenBackend, WrongIdIsAProtocolError) { expect_protocol_fault("wrong-id", "answers request 1001, not 1"); }
TEST_P(BrokenBackend, UnknownTypeIsAProtocolError) { expect_protocol_fault("unknown-type", "unknown type 'results'"); }
TEST_P(BrokenBackend, UnknownFieldIsAProtocolError) {
  expect_protocol_fault("unknown-field", "unknown field 'elapsed_ms'");
}
TEST_P(BrokenBackend, ByteCountMismatchIsAProtocolError) { expect_protocol_fault("byte-count", "33 bytes of data"); }
TEST_P(BrokenBackend, UnaskedOutputIsAProtocolError) { expect_protocol_fault("extra-output", "output 'bogus'"); }
TEST_P(BrokenBackend, MissingOutputIsAProtocolError) { expect_protocol_fault("missing-output", "has no output 'y'"); }

TEST_P(BrokenBackend, LyingIsAJudgedFailureNotAFault) {
  const auto backend = make("--lie-on=mul");
  const ProgramResult lie = backend->evaluate(testing::mul_case(), kPatient);
  EXPECT_EQ(lie.fault, Fault::None) << lie.broken;
  const Evaluation ev = judge(testing::mul_case(), lie);
  EXPECT_EQ(ev.verdict, Verdict::Fail);
  EXPECT_TRUE(contains(ev.reason, "4 of 4 elements differ")) << ev.reason;
}

TEST_P(BrokenBackend, StderrFloodDoesNotBlock) {
  const auto backend = make("--flood-stderr-on=mul");
  const Evaluation ev =
      judge(testing::mul_case(), backend->evaluate(testing::mul_case(), EvaluateOptions{std::chrono::seconds(10)}));
  EXPECT_EQ(ev.verdict, Verdict::Pass) << ev.reason;
}

TEST_P(BrokenBackend, ExitRightAfterTheHandshakeIsACrashEachTime) {
  const auto backend = make("--exit-after-handshake");
  for (int i = 0; i < 2; ++i) {
    const ProgramResult r = backend->evaluate(testing::add_case(), kPatient);
    EXPECT_EQ(r.fault, Fault::Crash);
    EXPECT_TRUE(contains(r.broken, "exited with status 0")) << r.broken;
    EXPECT_TRUE(contains(r.broken, "leaving right after the handshake")) << r.broken;
  }
}

TEST_P(BrokenBackend, FailedRestartsGiveTheBackendUpAfterThreeInARow) {
  const std::filesystem::path marker =
      std::filesystem::temp_directory_path() / ("funcspec-restart-" + GetParam() + std::to_string(::getpid()));
  std::filesystem::remove(marker);
  const auto backend = make("--crash-on=mul --refuse-restart=" + marker.string());
  EXPECT_EQ(backend->evaluate(testing::mul_case(), kPatient).fault, Fault::Crash);
  const auto start = std::chrono::steady_clock::now();
  for (int attempt = 1; attempt <= kMostFailedRestartsInARow; ++attempt) {
    const ProgramResult r = backend->evaluate(testing::add_case(), kPatient);
    EXPECT_EQ(r.fault, Fault::Crash);
    EXPECT_TRUE(contains(r.broken, "could not be restarted after a fault")) << r.broken;
    EXPECT_TRUE(contains(r.broken, "refuses every handshake")) << r.broken;
    if (attempt < kMostFailedRestartsInARow) {
      EXPECT_TRUE(contains(r.broken, fmt::format("try {} of {}", attempt, kMostFailedRestartsInARow))) << r.broken;
    } else {
      EXPECT_TRUE(contains(r.broken, "no further case is sent")) << r.broken;
    }
  }
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  // Given up: later cases are crashes that say so.
  for (int i = 0; i < 2; ++i) {
    const ProgramResult r = backend->evaluate(testing::add_case(), kPatient);
    EXPECT_EQ(r.fault, Fault::Crash);
    EXPECT_TRUE(contains(r.broken, "no further case is sent")) << r.broken;
  }
  std::filesystem::remove(marker);
}

TEST_P(BrokenBackend, OneFailedRestartCostsOneCase) {
  const std::filesystem::path counter =
      std::filesystem::temp_directory_path() / ("funcspec-hellos-" + GetParam() + std::to_string(::getpid()));
  std::filesystem::remove(counter);
  const auto backend = make("--crash-on=mul --refuse-first-restart=" + counter.string());
  EXPECT_EQ(backend->evaluate(testing::mul_case(), kPatient).fault, Fault::Crash);
  const ProgramResult refused = backend->evaluate(testing::add_case(), kPatient);
  EXPECT_EQ(refused.fault, Fault::Crash);
  EXPECT_TRUE(contains(refused.broken, "the next case tries again")) << refused.broken;
  for (int i = 0; i < 2; ++i) {
    const Evaluation ev = judge(testing::add_case(), backend->evaluate(testing::add_case(), kPatient));
    EXPECT_EQ(ev.verdict, Verdict::Pass) << ev.reason;
  }
  std::filesystem::remove(counter);
}

TEST_P(BrokenBackend, RestartWithOtherCapabilitiesIsRefused) {
  const std::filesystem::path marker =
      std::filesystem::temp_directory_path() / ("funcspec-rename-" + GetParam() + std::to_string(::getpid()));
  std::filesystem::remove(marker);
  const auto backend = make("--crash-on=mul --rename-on-restart=" + marker.string());
  EXPECT_EQ(backend->evaluate(testing::mul_case(), kPatient).fault, Fault::Crash);
  const ProgramResult r = backend->evaluate(testing::add_case(), kPatient);
  EXPECT_EQ(r.fault, Fault::Crash);
  EXPECT_TRUE(contains(r.broken, "states different capabilities")) << r.broken;
  std::filesystem::remove(marker);
}

TEST_P(BrokenBackend, UnsupportedCaseIsNeverSent) {
  const auto backend = make("--crash-on=mul");
  Case c = testing::mul_case();
  c.device = Device::Cuda;  // a device the reference backend does not declare
  const ProgramResult r = backend->evaluate(c, kPatient);
  ASSERT_TRUE(r.unsupported);
  EXPECT_EQ(r.fault, Fault::None);
}

INSTANTIATE_TEST_SUITE_P(Transports, BrokenBackend, ::testing::Values("exec", "plugin"),
                         [](const ::testing::TestParamInfo<std::string>& param_info) { return param_info.param; });

}  // namespace
}  // namespace funcspec::conformance
