// The three ways in give byte-identical results: the exec and plug-in reference against the
// in-process reference, on every fixture case and on cases built from the op sample database.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "conformance/backend/backend.h"
#include "conformance/backend/reference_backend.h"
#include "tests/backend/backend_test_support.h"

namespace funcspec::conformance {
namespace {

std::string describe(const ProgramResult& r) {
  std::string out = fmt::format("fault={} broken='{}' unsupported='{}' error={} '{}' outputs:", fault_name(r.fault),
                                r.broken, r.unsupported.value_or(""),
                                r.error ? error_kind_name(*r.error) : std::string_view("-"), r.error_message);
  for (const auto& [name, data] : r.outputs)
    out +=
        fmt::format(" {}:{}{}({} bytes)", name, dtype_name(data.dtype), shape_to_string(data.shape), data.bytes.size());
  return out;
}

void expect_identical(const ProgramResult& expected, const ProgramResult& got, const std::string& id) {
  const bool same = expected.outputs == got.outputs && expected.error == got.error &&
                    expected.error_message == got.error_message && expected.unsupported == got.unsupported &&
                    expected.broken == got.broken && expected.fault == got.fault;
  EXPECT_TRUE(same) << id << "\n  in process: " << describe(expected) << "\n  through:    " << describe(got);
}

class ThroughTheProtocol : public ::testing::TestWithParam<std::string> {
 protected:
  void expect_same_as_in_process(const std::vector<Case>& cases) {
    ReferenceBackend in_process;
    const auto other = make_backend(GetParam());
    for (const Case& c : cases) expect_identical(in_process.evaluate(c, {}), other->evaluate(c, {}), c.id);
  }
};

TEST_P(ThroughTheProtocol, StatesTheSameCapabilities) {
  const Capabilities expected = reference_capabilities();
  const auto backend = make_backend(GetParam());
  const Capabilities& got = backend->capabilities();
  EXPECT_EQ(got.name, expected.name);
  EXPECT_EQ(got.version, expected.version);
  EXPECT_EQ(got.ops, expected.ops);
  EXPECT_EQ(got.transforms, expected.transforms);
  EXPECT_EQ(got.dtypes, expected.dtypes);
  EXPECT_EQ(got.devices, expected.devices);
}

TEST_P(ThroughTheProtocol, FixtureCasesGiveIdenticalResults) { expect_same_as_in_process(testing::fixture_cases()); }

TEST_P(ThroughTheProtocol, GeneratedCasesGiveIdenticalResults) {
  const std::vector<Case> cases = testing::generated_cases(2);
  ASSERT_GE(cases.size(), 200u);
  // Most of them must compute values, or the comparison would prove little.
  ReferenceBackend in_process;
  std::size_t with_values = 0;
  for (const Case& c : cases) with_values += in_process.evaluate(c, {}).outputs.empty() ? 0 : 1;
  EXPECT_GE(with_values, cases.size() * 3 / 4) << with_values << " of " << cases.size();
  expect_same_as_in_process(cases);
}

TEST_P(ThroughTheProtocol, JudgedFixturesAgree) {
  ReferenceBackend in_process;
  const auto other = make_backend(GetParam());
  for (const Case& c : testing::fixture_cases()) {
    EXPECT_EQ(judge(c, other->evaluate(c, {})).verdict, judge(c, in_process.evaluate(c, {})).verdict) << c.id;
  }
}

INSTANTIATE_TEST_SUITE_P(Backends, ThroughTheProtocol,
                         ::testing::Values("exec:" FUNCSPEC_REFERENCE_BACKEND, "plugin:" FUNCSPEC_REFERENCE_PLUGIN),
                         [](const ::testing::TestParamInfo<std::string>& param_info) {
                           return param_info.param.starts_with("exec:") ? std::string("Exec") : std::string("Plugin");
                         });

}  // namespace
}  // namespace funcspec::conformance
