#pragma once
// Mutant backends: the reference engine with one rule deliberately wrong, each a bug a real backend
// could have and a property of the suite must catch at the pr tier, so that no law passes because
// it cannot fail (docs/properties.md, *Mutants*). The wrong rule is in place only while the mutant
// evaluates a case (a rule replaced for a scope, NOTE: [rules replaced for a scope] in
// reference/transforms/op_rules.h), so the truth a property takes from the reference itself
// (run_on_reference, finite differences in the oracle dtype) stays right. Test-only, hence a header
// kept out of the property library. Also what every mutant test does with a mutant: find the
// property, run it at the pr tier, and check the counterexample it writes.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>

#include "conformance/backend/backend.h"
#include "conformance/backend/reference_backend.h"
#include "conformance/case/case_json.h"
#include "conformance/case/evaluate.h"
#include "conformance/suite/op_sample_cases.h"
#include "property_tests/property.h"
#include "property_tests/property_runner.h"
#include "reference/api/ops.h"
#include "reference/ops/registry.h"
#include "reference/transforms/op_rules.h"

namespace funcspec::properties {

class MutantBackend final : public conformance::Backend {
 public:
  // Puts the wrong rule in place; it stays there while the returned handle lives.
  using Mutation = std::function<std::shared_ptr<void>()>;

  MutantBackend(std::string name, Mutation mutate) : name_(std::move(name)), mutate_(std::move(mutate)) {}
  std::string spec() const override { return "mutant:" + name_; }
  const conformance::Capabilities& capabilities() const override { return reference_.capabilities(); }
  conformance::ProgramResult evaluate(const conformance::Case& c,
                                      const conformance::EvaluateOptions& options) override {
    const std::shared_ptr<void> mutation = mutate_();
    return reference_.evaluate(c, options);
  }

 private:
  std::string name_;
  Mutation mutate_;
  conformance::ReferenceBackend reference_;
};

// The reference behind a rewrite of each case or of its answer (randomness flags flipped, values
// scaled): a mutant that needs no rule of the engine changed.
class RewritingMutantBackend final : public conformance::Backend {
 public:
  using Evaluate = std::function<conformance::ProgramResult(const conformance::Case&, conformance::Backend& reference)>;
  RewritingMutantBackend(std::string name, Evaluate evaluate)
      : name_(std::move(name)), reference_(conformance::make_backend("reference")), evaluate_(std::move(evaluate)) {}
  std::string spec() const override { return "mutant:" + name_; }
  const conformance::Capabilities& capabilities() const override { return reference_->capabilities(); }
  conformance::ProgramResult evaluate(const conformance::Case& c, const conformance::EvaluateOptions&) override {
    return evaluate_(c, *reference_);
  }

 private:
  std::string name_;
  std::unique_ptr<conformance::Backend> reference_;
  Evaluate evaluate_;
};

inline PropertyDef property_named(const std::string& id) {
  for (PropertyDef& property : all_properties()) {
    if (property.id == id) return property;
  }
  throw std::invalid_argument("no property " + id + " among all_properties()");
}

// `property_id` catches `mutant` at the pr tier (the tier CI runs: a mutant must not slip through
// it), and the counterexample case it writes fails on the mutant and passes on the reference, as
// `funcspec replay` would find; with `most_ops`, it also shrank to a program of at most that many distinct ops.
inline void expect_caught(conformance::Backend& mutant, const std::string& property_id,
                          std::optional<std::size_t> most_ops = std::nullopt) {
  PropertyRunOptions options;
  options.tier = conformance::Tier::Pr;
  options.artifacts_dir = std::filesystem::path("funcspec-artifacts/mutants") / conformance::id_slug(mutant.spec());
  // Caught is the first failure, shrunk; the others would cost minutes under the sanitizers.
  options.most_distinct_failures = 1;
  const conformance::TestRecord record = run_property(property_named(property_id), mutant, options);
  ASSERT_EQ(record.status, conformance::TestStatus::Fail) << property_id << " did not catch " << mutant.spec() << ": "
                                                          << conformance::test_status_name(record.status) << "\n"
                                                          << record.reason << "\n"
                                                          << record.note;
  std::printf("%s caught by %s: %s\n", mutant.spec().c_str(), property_id.c_str(), record.reason.c_str());

  ASSERT_FALSE(record.replay_case.empty()) << "no counterexample case was written: " << record.reason;
  ASSERT_TRUE(std::filesystem::exists(record.replay_case)) << record.replay_case;
  const conformance::Case counterexample = conformance::read_case_file(record.replay_case);
  if (most_ops) {
    std::set<std::string> ops;
    for (const conformance::OpCall& step : counterexample.program) ops.insert(step.op);
    EXPECT_LE(ops.size(), *most_ops) << "the counterexample " << record.replay_case << " did not shrink:\n"
                                     << record.reason;
  }
  const conformance::Evaluation on_mutant = conformance::judge(counterexample, mutant.evaluate(counterexample, {}));
  EXPECT_EQ(on_mutant.verdict, conformance::Verdict::Fail)
      << "replaying " << record.replay_case << " on " << mutant.spec() << ": " << on_mutant.reason;
  const conformance::Evaluation on_reference = conformance::evaluate_on_reference(counterexample);
  EXPECT_EQ(on_reference.verdict, conformance::Verdict::Pass)
      << "replaying " << record.replay_case << " on the reference: " << on_reference.reason;
}

// sum's batching rule also reduces over the batch dim: every example gets the sum over the whole
// batch (a rule that loses track of where the batch dim is). PROP-VMAP/equals-loop must catch it.
inline std::unique_ptr<conformance::Backend> make_sum_reduces_the_batch_dim_mutant() {
  return std::make_unique<MutantBackend>("sum-reduces-the-batch-dim", [] {
    return std::make_shared<transforms::ScopedBatchRule>(
        "sum", [](const transforms::BatchedValues& in, const Attrs& attrs, const transforms::BatchContext& context) {
          transforms::BatchedValues out = OpRegistry::instance().get("sum").rules->batch(in, attrs, context);
          transforms::BatchedValue& result = out.at(0);
          if (!result.bdim) return out;
          const Tensor total = ops::sum(result.value, std::vector<std::int64_t>{*result.bdim}, /*keepdim=*/true);
          const Shape& shape = result.value.shape();
          result.value = ops::expand(total, std::vector<std::int64_t>(shape.begin(), shape.end()));
          return out;
        });
  });
}

// The broadcast reduction of reverse mode dropped. The op layer broadcasts operands with expand
// before any primitive sees them, so expand's transpose is where every vjp sums a cotangent back
// to a broadcast input's shape; this one takes the first element of each broadcast group instead
// of their sum: the shapes stay right and only the values are wrong. The PROP-AD properties must
// catch it (vjp is no longer the transpose of jvp).
inline std::unique_ptr<conformance::Backend> make_expand_transpose_without_sum_mutant() {
  return std::make_unique<MutantBackend>("expand-transpose-without-sum", [] {
    return std::make_shared<transforms::ScopedTransposeRule>("expand", [](const transforms::TransposeCall& c) {
      const Tensor& ct = c.cotangents[0];
      const Shape& shape = c.metas[0].shape;
      // An empty cotangent has no first element to take; the built-in sum there.
      if (ct.numel() == 0) return OpRegistry::instance().get("expand").rules->transpose(c);
      Tensor picked = ct;
      while (picked.dim() > static_cast<std::int64_t>(shape.size())) picked = ops::select(picked, 0, 0);
      for (std::size_t d = 0; d < shape.size(); ++d) {
        if (shape[d] == 1 && picked.shape()[d] != 1) picked = ops::narrow(picked, static_cast<std::int64_t>(d), 0, 1);
      }
      return TensorList{ops::contiguous(picked)};
    });
  });
}

// The broadcast reduction dropped outright: expand's transpose hands back the cotangent of the
// broadcast shape. The engine's own check of cotangent shapes turns it into an internal error where
// the reference raises nothing, which PROP-ERR/errors-match-reference must catch.
inline std::unique_ptr<conformance::Backend> make_expand_transpose_unreduced_mutant() {
  return std::make_unique<MutantBackend>("expand-transpose-unreduced", [] {
    return std::make_shared<transforms::ScopedTransposeRule>(
        "expand", [](const transforms::TransposeCall& c) { return TensorList{c.cotangents[0]}; });
  });
}

}  // namespace funcspec::properties
