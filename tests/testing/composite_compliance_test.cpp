// The composite-compliance checking mode (NOTE: [composite compliance]): every composite of the
// catalogue passes it over its samples, forward and under vjp and jvp; composites written to break
// one rule each are caught with that rule, in the combinations where the rule shows.
#include <gtest/gtest.h>

#include <cctype>
#include <map>
#include <numeric>
#include <set>

#include "conformance/samples/op_samples.h"
#include "reference/api/ops.h"
#include "reference/ops/dispatch.h"
#include "reference/ops/registry.h"
#include "reference/transforms/functionalize.h"
#include "reference/transforms/vmap.h"
#include "testing/composite_compliance.h"
#include "tests/reference/test_support.h"
#include "tests/reference/transforms/pyfunction_support.h"

namespace funcspec::transforms {
namespace {

using testing_support::values;

constexpr std::uint64_t kSeed = 20261121;
constexpr ComplianceMode kModes[] = {ComplianceMode::Forward, ComplianceMode::Vjp, ComplianceMode::Jvp};

std::string describe(const std::vector<ComplianceViolation>& violations) {
  std::string out;
  for (const ComplianceViolation& v : violations) {
    out += fmt::format("\n  {} {} [{}] {}: {}", v.op, compliance_mode_name(v.mode), v.combination, v.rule, v.message);
  }
  return out;
}

// ---- the catalogue -------------------------------------------------------------------------------

std::vector<std::string> catalogue_composites() {
  std::vector<std::string> names;
  for (const OpDef* op : OpRegistry::instance().all()) {
    if (op->kind == OpKind::Composite && op->family != "test") names.push_back(op->name());
  }
  return names;
}

class CompositeComplianceCatalogue : public testing::TestWithParam<std::string> {};

TEST_P(CompositeComplianceCatalogue, IsCompliantForwardAndUnderVjpAndJvp) {
  const OpDef& op = OpRegistry::instance().get(GetParam());
  const samples::OpSampleSpec* spec = samples::OpSampleRegistry::instance().find(op.name());
  ASSERT_NE(spec, nullptr) << op.name() << " has no samples";
  samples::SampleRng rng(kSeed);
  const std::vector<samples::OpSample> samples = spec->generate(DType::Float64, rng);
  ASSERT_FALSE(samples.empty());
  for (const samples::OpSample& sample : samples) {
    for (ComplianceMode mode : kModes) {
      SCOPED_TRACE(fmt::format("{} sample '{}' mode {}", op.name(), sample.label, compliance_mode_name(mode)));
      const std::vector<ComplianceViolation> violations =
          check_composite_compliance(op, sample.inputs, sample.attrs, mode, kSeed);
      EXPECT_TRUE(violations.empty()) << describe(violations);
    }
  }
}

std::string param_name(const testing::TestParamInfo<std::string>& info) {
  std::string name = info.param;
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

INSTANTIATE_TEST_SUITE_P(Composites, CompositeComplianceCatalogue, testing::ValuesIn(catalogue_composites()),
                         param_name);

TEST(CompositeComplianceCoverage, EveryCompositeHasSamples) {
  // A composite without samples would pass the suite above unchecked.
  for (const std::string& name : catalogue_composites()) {
    EXPECT_NE(samples::OpSampleRegistry::instance().find(name), nullptr) << name;
  }
  EXPECT_GE(catalogue_composites().size(), 30u);
}

// ---- composites that break the rules ---------------------------------------------------------------

// Registered on first use, once per process: the catalogue is global, and other tests only require
// of extra ops a parseable schema, a summary and a family.
const OpDef& test_composite(const std::string& schema, DecomposeFn decompose,
                            const std::string& summary = "a deliberately non-compliant composite") {
  static std::map<std::string, const OpDef*> registered;
  auto it = registered.find(schema);
  if (it != registered.end()) return *it->second;
  OpDef& op = OpRegistry::instance().add(schema, OpKind::Composite, "test", summary);
  op.decompose = std::move(decompose);
  registered.emplace(schema, &op);
  return op;
}

const OpDef& noncompliant_item() {
  return test_composite("test_noncompliant_item(Tensor self) -> Tensor", [](const TensorList& in, const Attrs&) {
    const double total = ops::item(ops::sum(in[0])).to_vector<double>()[0];
    return TensorList{ops::mul(in[0], ops::lit(total))};
  });
}

const OpDef& noncompliant_data() {
  return test_composite("test_noncompliant_data(Tensor self) -> Tensor", [](const TensorList& in, const Attrs&) {
    const std::vector<double> elements = in[0].to_vector<double>();
    const double total = std::accumulate(elements.begin(), elements.end(), 0.0);
    return TensorList{ops::mul(in[0], ops::lit(total))};
  });
}

const OpDef& noncompliant_out() {
  return test_composite("test_noncompliant_out(Tensor self, Tensor other) -> Tensor",
                        [](const TensorList& in, const Attrs&) {
                          const Tensor out = ops::zeros_like(in[0]);
                          call("add.out", {in[0], in[1], out});
                          return TensorList{out};
                        });
}

const OpDef& noncompliant_inplace() {
  return test_composite("test_noncompliant_inplace(Tensor self, Tensor other) -> Tensor",
                        [](const TensorList& in, const Attrs&) {
                          call("add_", {in[0], in[1]});
                          return TensorList{in[0]};
                        });
}

// Flattens `t` by rewriting its TensorImpl, as resize_ or set_ would, instead of through a view op.
void flatten_in_place(const Tensor& t) {
  TensorImpl& impl = *t.impl_ptr();
  TensorImpl flat(impl.storage(), {t.numel()}, {1}, 0, t.dtype(), t.device());
  flat.set_payload(impl.payload());
  impl = flat;
}

const OpDef& noncompliant_metadata() {
  return test_composite("test_noncompliant_metadata(Tensor self) -> Tensor", [](const TensorList& in, const Attrs&) {
    const Tensor doubled = ops::mul(in[0], ops::lit(2.0));
    flatten_in_place(doubled);
    return TensorList{ops::neg(doubled)};
  });
}

const OpDef& noncompliant_resized_input() {
  return test_composite("test_noncompliant_resized_input(Tensor self) -> Tensor",
                        [](const TensorList& in, const Attrs&) {
                          const Tensor doubled = ops::mul(in[0], ops::lit(2.0));
                          flatten_in_place(in[0]);
                          return TensorList{doubled};
                        });
}

const OpDef& noncompliant_branch_on_wrapper() {
  return test_composite("test_noncompliant_branch(Tensor self) -> Tensor", [](const TensorList& in, const Attrs&) {
    return TensorList{ops::mul(in[0], ops::lit(in[0].payload() == nullptr ? 2.0 : 3.0))};
  });
}

const OpDef& noncompliant_storage_check() {
  return test_composite("test_noncompliant_storage_check(Tensor self) -> Tensor",
                        [](const TensorList& in, const Attrs&) {
                          FUNCSPEC_CHECK(in[0].has_storage(), ErrorKind::InvalidArgument,
                                         "[test_noncompliant_storage_check] self has no storage");
                          return TensorList{ops::neg(in[0])};
                        });
}

const OpDef& noncompliant_unchecked_validation() {
  return test_composite("test_noncompliant_unchecked_validation(Tensor self) -> Tensor",
                        [](const TensorList& in, const Attrs&) {
                          FUNCSPEC_CHECK(in[0].payload() != nullptr || in[0].dim() == 1, ErrorKind::ShapeMismatch,
                                         "[test_noncompliant_unchecked_validation] self must be 1-D");
                          return TensorList{ops::neg(in[0])};
                        });
}

const OpDef& noncompliant_item_of_many() {
  return test_composite("test_noncompliant_item_of_many(Tensor[] tensors) -> Tensor",
                        [](const TensorList& in, const Attrs&) {
                          const double first = ops::item(ops::sum(in[0])).to_vector<double>()[0];
                          return TensorList{ops::mul(ops::stack(in), ops::lit(first))};
                        });
}

Tensor matrix() { return from_values({1, -2, 3, 0.5, 4, -1}, {2, 3}); }
Tensor other_matrix() { return from_values({0.25, 1, -1, 2, 0, 3}, {2, 3}); }

// The combinations (labels) that broke `rule`, and whether any violation named another rule.
std::set<std::string> combinations_breaking(const std::vector<ComplianceViolation>& violations, std::string_view rule,
                                            bool* other_rules = nullptr) {
  std::set<std::string> out;
  for (const ComplianceViolation& v : violations) {
    if (v.rule == rule) {
      out.insert(v.combination);
      EXPECT_NE(v.message.find(v.op), std::string::npos) << "the message names the composite: " << v.message;
      EXPECT_NE(v.message.find(v.rule), std::string::npos) << "the message names the rule: " << v.message;
    } else if (other_rules != nullptr) {
      *other_rules = true;
    }
  }
  return out;
}

TEST(CompositeComplianceNoncompliant, ItemIsCaughtWhereTheInputIsCheckedInEveryMode) {
  const OpDef& op = noncompliant_item();
  const std::map<ComplianceMode, std::set<std::string>> expected{
      {ComplianceMode::Forward, {"x0:checked"}},
      {ComplianceMode::Vjp, {"x0:checked ct0:plain", "x0:checked ct0:checked"}},
      {ComplianceMode::Jvp, {"x0:checked t0:plain", "x0:checked t0:checked"}},
  };
  for (const auto& [mode, combinations] : expected) {
    const std::vector<ComplianceViolation> violations = check_composite_compliance(op, {matrix()}, {}, mode, kSeed);
    bool other_rules = false;
    EXPECT_EQ(combinations_breaking(violations, compliance_rule::kItem, &other_rules), combinations)
        << describe(violations);
    EXPECT_FALSE(other_rules) << describe(violations);
    for (const ComplianceViolation& v : violations) {
      EXPECT_EQ(v.mode, mode);
      EXPECT_EQ(v.op, "test_noncompliant_item");
      EXPECT_NE(v.message.find("called item on a checked tensor"), std::string::npos) << v.message;
    }
  }
}

TEST(CompositeComplianceNoncompliant, DataAccessIsCaughtOnCheckedInputsAndOnEveryAdWrapper) {
  const OpDef& op = noncompliant_data();
  const std::vector<ComplianceViolation> forward =
      check_composite_compliance(op, {matrix()}, {}, ComplianceMode::Forward, kSeed);
  bool other_rules = false;
  EXPECT_EQ(combinations_breaking(forward, compliance_rule::kDataAccess, &other_rules),
            (std::set<std::string>{"x0:checked"}))
      << describe(forward);
  EXPECT_FALSE(other_rules) << describe(forward);
  // Under vjp and jvp the composite reads a dual even when nothing is checked: the transform
  // itself is what such a composite breaks.
  for (ComplianceMode mode : {ComplianceMode::Vjp, ComplianceMode::Jvp}) {
    const std::vector<ComplianceViolation> violations = check_composite_compliance(op, {matrix()}, {}, mode, kSeed);
    EXPECT_EQ(combinations_breaking(violations, compliance_rule::kDataAccess).size(), 4u) << describe(violations);
    EXPECT_EQ(violations.size(), 4u) << describe(violations);
  }
}

TEST(CompositeComplianceNoncompliant, OutVariantsAreCaughtWhenAnArgumentIsChecked) {
  const OpDef& op = noncompliant_out();
  const std::vector<ComplianceViolation> violations =
      check_composite_compliance(op, {matrix(), other_matrix()}, {}, ComplianceMode::Forward, kSeed);
  bool other_rules = false;
  EXPECT_EQ(combinations_breaking(violations, compliance_rule::kOut, &other_rules),
            (std::set<std::string>{"x0:checked x1:plain", "x0:plain x1:checked", "x0:checked x1:checked"}))
      << describe(violations);
  EXPECT_FALSE(other_rules) << describe(violations);
  // Under jvp a checked tangent is as much a transform's value as a checked primal.
  const std::vector<ComplianceViolation> jvp =
      check_composite_compliance(op, {matrix(), other_matrix()}, {}, ComplianceMode::Jvp, kSeed);
  EXPECT_EQ(combinations_breaking(jvp, compliance_rule::kOut, &other_rules).size(), 15u) << describe(jvp);
  EXPECT_FALSE(other_rules) << describe(jvp);
}

TEST(CompositeComplianceNoncompliant, InPlaceWritesFromCheckedIntoPlainAreCaught) {
  const OpDef& op = noncompliant_inplace();
  const std::vector<ComplianceViolation> violations =
      check_composite_compliance(op, {matrix(), other_matrix()}, {}, ComplianceMode::Forward, kSeed);
  EXPECT_EQ(combinations_breaking(violations, compliance_rule::kInplaceIntoUnchecked),
            (std::set<std::string>{"x0:plain x1:checked"}))
      << describe(violations);
  // Where the write goes ahead (into a checked tensor, or with nothing checked) it still writes into
  // an input, which a composite must not do either.
  EXPECT_EQ(combinations_breaking(violations, compliance_rule::kInputWritten),
            (std::set<std::string>{"x0:plain x1:plain", "x0:checked x1:plain", "x0:checked x1:checked"}))
      << describe(violations);
  EXPECT_EQ(violations.size(), 4u) << describe(violations);
}

TEST(CompositeComplianceNoncompliant, MetadataChangedOutsideTheOpLayerIsCaughtAtTheNextOp) {
  const OpDef& op = noncompliant_metadata();
  const std::vector<ComplianceViolation> violations =
      check_composite_compliance(op, {matrix()}, {}, ComplianceMode::Forward, kSeed);
  bool other_rules = false;
  EXPECT_EQ(combinations_breaking(violations, compliance_rule::kMetadataChange, &other_rules),
            (std::set<std::string>{"x0:checked"}))
      << describe(violations);
  EXPECT_FALSE(other_rules) << describe(violations);
  ASSERT_EQ(violations.size(), 1u);
  EXPECT_NE(violations[0].message.find("passed to neg"), std::string::npos) << violations[0].message;
  EXPECT_NE(violations[0].message.find("the shape [6] but its value the shape [2, 3]"), std::string::npos)
      << violations[0].message;
}

TEST(CompositeComplianceNoncompliant, AnInputResizedOutsideTheOpLayerIsCaughtAfterTheCall) {
  const OpDef& op = noncompliant_resized_input();
  const std::vector<ComplianceViolation> violations =
      check_composite_compliance(op, {matrix()}, {}, ComplianceMode::Forward, kSeed);
  bool other_rules = false;
  EXPECT_EQ(combinations_breaking(violations, compliance_rule::kMetadataChange, &other_rules),
            (std::set<std::string>{"x0:plain", "x0:checked"}))
      << describe(violations);
  EXPECT_FALSE(other_rules) << describe(violations);
  for (const ComplianceViolation& v : violations) {
    EXPECT_NE(v.message.find("its shape changed from [2, 3] to [6]"), std::string::npos) << v.message;
  }
}

TEST(CompositeComplianceNoncompliant, ResultsThatDependOnBeingCheckedAreCaught) {
  const std::vector<ComplianceViolation> violations =
      check_composite_compliance(noncompliant_branch_on_wrapper(), {matrix()}, {}, ComplianceMode::Forward, kSeed);
  bool other_rules = false;
  EXPECT_EQ(combinations_breaking(violations, compliance_rule::kResultMismatch, &other_rules),
            (std::set<std::string>{"x0:checked"}))
      << describe(violations);
  EXPECT_FALSE(other_rules) << describe(violations);
}

TEST(CompositeComplianceNoncompliant, ErrorsOnlyTheCheckedRunRaisesAreCaught) {
  const std::vector<ComplianceViolation> violations =
      check_composite_compliance(noncompliant_storage_check(), {matrix()}, {}, ComplianceMode::Forward, kSeed);
  ASSERT_EQ(violations.size(), 1u) << describe(violations);
  EXPECT_EQ(violations[0].rule, compliance_rule::kError);
  EXPECT_EQ(violations[0].combination, "x0:checked");
  EXPECT_NE(violations[0].message.find("invalid_argument"), std::string::npos) << violations[0].message;
}

TEST(CompositeComplianceNoncompliant, ChecksSkippedForCheckedTensorsAreCaught) {
  const std::vector<ComplianceViolation> violations =
      check_composite_compliance(noncompliant_unchecked_validation(), {matrix()}, {}, ComplianceMode::Forward, kSeed);
  ASSERT_EQ(violations.size(), 1u) << describe(violations);
  EXPECT_EQ(violations[0].rule, compliance_rule::kError);
  EXPECT_EQ(violations[0].combination, "x0:checked");
  EXPECT_NE(violations[0].message.find("succeeded where the plain run raised shape_mismatch"), std::string::npos)
      << violations[0].message;
}

TEST(CompositeComplianceNoncompliant, BeyondSixTensorsADeterministicSubsetOf64CombinationsRuns) {
  const OpDef& op = noncompliant_item_of_many();
  TensorList inputs;
  for (int i = 0; i < 8; ++i) inputs.push_back(from_values({1.0 + i, -2.0}, {2}));
  const std::vector<ComplianceViolation> first =
      check_composite_compliance(op, inputs, {}, ComplianceMode::Forward, kSeed);
  const std::set<std::string> caught = combinations_breaking(first, compliance_rule::kItem);
  // 256 combinations, half with x0 checked; of the 64 run, the all-checked one, x0 alone and each
  // "all but one" except the one leaving x0 plain are sure to be among them.
  EXPECT_LE(caught.size(), 64u);
  EXPECT_GE(caught.size(), 9u);
  EXPECT_TRUE(caught.contains("x0:checked x1:plain x2:plain x3:plain x4:plain x5:plain x6:plain x7:plain"));
  for (const std::string& c : caught) EXPECT_TRUE(c.starts_with("x0:checked")) << c;
  const std::vector<ComplianceViolation> again =
      check_composite_compliance(op, inputs, {}, ComplianceMode::Forward, kSeed);
  EXPECT_EQ(combinations_breaking(again, compliance_rule::kItem), caught);
}

// ---- the mode itself -----------------------------------------------------------------------------

TEST(CompositeComplianceMode, CheckedTensorsComputeThroughOpsAndMirrorTheirValues) {
  const Tensor x = ops::permute(from_values({1, 2, 3, 4, 5, 6}, {2, 3}), {1, 0});
  ComplianceScope scope("test");
  const Tensor checked = scope.check(x);
  EXPECT_EQ(checked.shape(), x.shape());
  EXPECT_EQ(checked.strides(), x.strides());
  EXPECT_FALSE(checked.has_storage());
  const Tensor y = ops::add(ops::select(checked, 0, 1), ops::lit(1.0));
  const CheckedPayload* payload = checked_payload(y, scope.interpreter().level());
  ASSERT_NE(payload, nullptr) << "results of ops on checked tensors are checked";
  EXPECT_EQ(values(payload->value()), (std::vector<double>{3, 6}));
  // What involves no checked tensor stays plain.
  EXPECT_EQ(ops::add(x, ops::lit(1.0)).payload(), nullptr);
}

TEST(CompositeComplianceMode, EveryWayIntoACheckedTensorsElementsRaises) {
  ComplianceScope scope("test");
  const Tensor checked = scope.check(matrix());
  const auto expect_data_access = [](auto&& fn) {
    try {
      fn();
      ADD_FAILURE() << "nothing was raised";
    } catch (const ComplianceError& e) {
      EXPECT_EQ(e.kind(), ErrorKind::CompositeNoncompliant);
      EXPECT_EQ(e.rule(), compliance_rule::kDataAccess);
    }
  };
  expect_data_access([&] { (void)checked.to_vector<double>(); });
  expect_data_access([&] { (void)checked.data<double>(); });
  expect_data_access([&] { (void)checked.to_string(); });
  expect_data_access([&] { (void)checked.storage(); });
  expect_data_access([&] { (void)Tensor::view_of(checked, {6}, {1}, 0); });
}

TEST(CompositeComplianceMode, TheErrorKindHasAStableName) {
  EXPECT_EQ(error_kind_name(ErrorKind::CompositeNoncompliant), "composite_noncompliant");
  EXPECT_EQ(parse_error_kind("composite_noncompliant"), ErrorKind::CompositeNoncompliant);
}

TEST(CompositeComplianceMode, OnlyCompositesAreChecked) {
  testing_support::expect_error_kind(ErrorKind::InvalidArgument, [] {
    check_composite_compliance(OpRegistry::instance().get("add"), {matrix(), matrix()}, {}, ComplianceMode::Forward,
                               kSeed);
  });
}

TEST(CompositeComplianceMode, ASampleTheOpRejectsIsRejectedAlikeInEveryCombination) {
  for (ComplianceMode mode : kModes) {
    const std::vector<ComplianceViolation> violations = check_composite_compliance(
        OpRegistry::instance().get("softmax"), {matrix()}, {{"dim", std::int64_t{5}}}, mode, kSeed);
    EXPECT_TRUE(violations.empty()) << describe(violations);
  }
}

// exp's jvp rule saves exp's result for the backward pass, and the composite then writes into it.
const OpDef& writes_into_a_value_the_tape_saved() {
  return test_composite(
      "test_writes_into_saved(Tensor self) -> Tensor",
      [](const TensorList& in, const Attrs&) {
        const Tensor y = ops::exp(in[0]);
        ops::add_(y, ops::lit(1.0));
        return TensorList{y};
      },
      "a compliant composite that writes into an intermediate");
}

TEST(CompositeComplianceMode, AWriteIntoAValueTheVjpTapeSavedIsNoViolation) {
  // The tape copies a saved value before a write into its memory (NOTE: [reverse mode]), which it
  // finds through checked tensors as through any wrapper (NOTE: [wrapper walk]). A tape that stopped
  // at them would pull the checked runs back through exp(x) + 1: result mismatches.
  for (ComplianceMode mode : kModes) {
    const std::vector<ComplianceViolation> violations =
        check_composite_compliance(writes_into_a_value_the_tape_saved(), {matrix()}, {}, mode, kSeed);
    EXPECT_TRUE(violations.empty()) << describe(violations);
  }
}

Tensor add_into_zeros(const Tensor& x) {
  const Tensor out = ops::zeros_like(x);
  ops::add_out(x, x, out);
  return out;
}

TEST(CompositeComplianceMode, OutVariantsAreCaughtThroughTheWrappersOfTransformsAboveTheCheck) {
  ComplianceScope scope("test");
  const Tensor checked = scope.check(matrix());
  try {
    testing_support::call1(functionalize(testing_support::lift(add_into_zeros)), checked);
    ADD_FAILURE() << "nothing was raised";
  } catch (const ComplianceError& e) {
    EXPECT_EQ(e.rule(), compliance_rule::kOut);
  }
}

TEST(CompositeComplianceMode, VmapAboveTheCheckRefusesOutVariantsFirst) {
  // The innermost level that refuses out= names the cause: here vmap's, which sees the call first.
  ComplianceScope scope("test");
  const Tensor checked = scope.check(matrix());
  testing_support::expect_error_kind(
      ErrorKind::VmapOutVariant, [&] { testing_support::call1(vmap(testing_support::lift(add_into_zeros)), checked); });
}

TEST(CompositeComplianceMode, OpsWithoutFloatingInputsHaveNothingToCheckUnderAd) {
  const Tensor indices = from_values({0, 1}, {2}, DType::Int64);
  for (ComplianceMode mode : {ComplianceMode::Vjp, ComplianceMode::Jvp}) {
    EXPECT_TRUE(
        check_composite_compliance(OpRegistry::instance().get("zeros_like"), {indices}, {}, mode, kSeed).empty());
  }
}

}  // namespace
}  // namespace funcspec::transforms
