#pragma once
// Mutant backends (issue 6, item 7): the reference engine with one rule deliberately wrong, each a
// bug a real backend could have and a property of the suite must catch at the pr tier. The wrong
// rule is in place only while the mutant evaluates a case (a rule replaced for a scope, NOTE: [rules
// replaced for a scope] in reference/transforms/batch_rules.h), so the truth a property takes from
// the reference itself (run_on_reference, finite differences in the oracle dtype) stays right.
// Test-only, hence a header kept out of the property library.
#include <functional>
#include <memory>
#include <string>
#include <utility>

#include "conformance/backend/backend.h"
#include "conformance/backend/reference_backend.h"
#include "reference/api/ops.h"
#include "reference/transforms/ad_rules.h"
#include "reference/transforms/batch_rules.h"

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

// sum's batching rule also reduces over the batch dim: every example gets the sum over the whole
// batch (a rule that loses track of where the batch dim is). PROP-VMAP/equals-loop must catch it.
inline std::unique_ptr<conformance::Backend> make_sum_reduces_the_batch_dim_mutant() {
  return std::make_unique<MutantBackend>("sum-reduces-the-batch-dim", [] {
    return std::make_shared<transforms::ScopedBatchRule>(
        "sum", [](const transforms::BatchedValues& in, const Attrs& attrs, const transforms::BatchContext& context) {
          transforms::BatchedValues out = transforms::BatchRuleRegistry::instance().all().at("sum")(in, attrs, context);
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
      if (ct.numel() == 0) return transforms::AdRuleRegistry::instance().transpose_rules().at("expand")(c);
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
