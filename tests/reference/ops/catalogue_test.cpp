// Catalogue-wide checks: every op of the catalogue, driven by its samples (NOTE: [op samples]).
// The seeds are fixed so a failure reproduces; FUNCSPEC_SEED replaces them with one to explore.
#include <gtest/gtest.h>

#include <cstdlib>

#include "conformance/samples/sample_checks.h"
#include "reference/core/promotion.h"
#include "reference/ops/dispatch.h"
#include "reference/ops/registry.h"

namespace funcspec {
namespace {

std::vector<std::uint64_t> test_seeds() {
  if (const char* env = std::getenv("FUNCSPEC_SEED")) return {std::strtoull(env, nullptr, 10)};
  return {20261121u, 1u, 2u, 3u};
}

std::uint64_t first_seed() { return test_seeds().front(); }

std::vector<std::string> ops_where(bool (*keep)(const OpDef&)) {
  std::vector<std::string> names;
  for (const OpDef* op : OpRegistry::instance().all()) {
    if (keep(*op)) names.push_back(op->name());
  }
  return names;
}

// An overload's '.' becomes "__", so that scatter.reduce and scatter_reduce stay apart.
std::string param_name(const testing::TestParamInfo<std::string>& info) {
  std::string name;
  for (const char c : info.param) {
    if (c == '.')
      name += "__";
    else
      name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  }
  return name;
}

void expect_passed(const samples::SampleVerdict& v) {
  EXPECT_GT(v.samples_run, 0) << v.op << ": no samples ran for " << v.check;
  for (const std::string& f : v.failures) ADD_FAILURE() << f;
  testing::Test::RecordProperty("max_error_ulps_" + v.check, std::to_string(v.max_error_ulps));
}

// Ops that compute (not derived variants, which are checked against their functional op below).
class CatalogueOp : public testing::TestWithParam<std::string> {
 protected:
  const samples::OpSampleSpec& spec() {
    const samples::OpSampleSpec* s = samples::OpSampleRegistry::instance().find(GetParam());
    if (s == nullptr) throw std::runtime_error("no samples are declared for op '" + GetParam() + "'");
    return *s;
  }
};

TEST_P(CatalogueOp, HasSamples) {
  EXPECT_NE(samples::OpSampleRegistry::instance().find(GetParam()), nullptr)
      << "declare samples for '" << GetParam() << "' in conformance/samples/";
}

TEST_P(CatalogueOp, MetaAgreesWithCpuOnShapeAndDtype) {
  for (std::uint64_t seed : test_seeds()) expect_passed(samples::check_meta_agrees(spec(), seed));
}

TEST_P(CatalogueOp, Float64AgreesWithTheOracle) {
  if (!spec().oracle_exemption.empty()) GTEST_SKIP() << spec().oracle_exemption;
  for (std::uint64_t seed : test_seeds()) expect_passed(samples::check_oracle_agrees(spec(), DType::Float64, seed));
}

TEST_P(CatalogueOp, Float32AgreesWithTheOracle) {
  if (!spec().oracle_exemption.empty()) GTEST_SKIP() << spec().oracle_exemption;
  for (std::uint64_t seed : test_seeds()) expect_passed(samples::check_oracle_agrees(spec(), DType::Float32, seed));
}

INSTANTIATE_TEST_SUITE_P(All, CatalogueOp,
                         testing::ValuesIn(ops_where([](const OpDef& op) { return op.functional.empty(); })),
                         param_name);

// Derived variants (NOTE: [derived variants]) give exactly what their functional op gives, written
// into the target, wherever the functional result fits the target.
class DerivedVariant : public testing::TestWithParam<std::string> {};

TEST_P(DerivedVariant, WritesWhatTheFunctionalOpComputes) {
  const OpDef& variant = OpRegistry::instance().get(GetParam());
  const samples::OpSampleSpec* spec = samples::OpSampleRegistry::instance().find(variant.functional);
  ASSERT_NE(spec, nullptr) << "no samples for " << variant.functional;
  samples::SampleRng rng(first_seed());
  int checked = 0;
  for (const samples::OpSample& sample : spec->generate(DType::Float64, rng)) {
    TensorList functional_inputs = samples::clone_inputs(sample.inputs);
    Tensor expected;
    try {
      expected = call_one(variant.functional, functional_inputs, sample.attrs);
    } catch (const Error&) {
      continue;  // samples that exercise the functional op's errors say nothing about the variant
    }
    TensorList inputs = samples::clone_inputs(sample.inputs);
    Tensor target;
    if (variant.kind == OpKind::InPlace) {
      target = inputs.at(0);
      if (target.is_wrapped_number() || target.shape() != expected.shape() ||
          !can_cast(expected.dtype(), target.dtype()))
        continue;
    } else {
      target = Tensor::empty(expected.shape(), expected.dtype());
      // out follows every tensor argument of the functional op, omitted optional ones included.
      inputs.resize(OpRegistry::instance().get(variant.functional).schema.tensor_args().size());
      inputs.push_back(target);
    }
    const Tensor returned = call_one(variant.name(), inputs, sample.attrs);
    EXPECT_TRUE(returned.is_same(target)) << variant.name() << " must return its target [" << sample.label << "]";
    const Tensor expected_in_target_dtype = call_one("to_dtype", {expected}, {{"dtype", target.dtype()}});
    EXPECT_EQ(target.to_string(), expected_in_target_dtype.to_string())
        << variant.name() << " [" << sample.label << "]";
    ++checked;
  }
  EXPECT_GT(checked, 0) << "no sample of " << variant.functional << " fits " << variant.name();
}

INSTANTIATE_TEST_SUITE_P(All, DerivedVariant,
                         testing::ValuesIn(ops_where([](const OpDef& op) { return !op.functional.empty(); })),
                         param_name);

TEST(Catalogue, EveryOpHasASummaryAndAFamily) {
  for (const OpDef* op : OpRegistry::instance().all()) {
    EXPECT_FALSE(op->summary.empty()) << op->name();
    EXPECT_FALSE(op->family.empty()) << op->name();
  }
}

TEST(Catalogue, SamplesNameOnlyOpsThatExist) {
  for (const auto& [name, spec] : samples::OpSampleRegistry::instance().all()) {
    EXPECT_NE(OpRegistry::instance().find(name), nullptr) << "samples for unknown op " << name;
  }
}

}  // namespace
}  // namespace funcspec
