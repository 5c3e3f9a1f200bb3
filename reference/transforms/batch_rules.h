#pragma once
// NOTE: [batching rules]
// A batching rule computes one op for a whole batch at once: it takes the op's inputs as
// (value, bdim) pairs at one vmap level (NOTE: [batched tensors]) and returns the results as
// (value, bdim) pairs, calling ordinary ops on the values. It runs below its level (the
// interpreter lowers first), so the ops it calls are handled by outer transforms, if any.
// Rules live with the op family's other transform rules in reference/rules/<family>.cpp.
// An op without a rule still works under vmap through the for-loop fallback, which is counted
// (fallback_log.h): "correct" and "has a native batching rule" are separate facts.
#include <cstdint>
#include <functional>
#include <map>
#include <string>

#include "reference/ops/attrs.h"
#include "reference/transforms/batched.h"
#include "reference/transforms/randomness.h"

namespace funcspec {
struct OpDef;
}

namespace funcspec::transforms {

struct BatchContext {
  std::int64_t batch_size = 0;  // the examples this call computes (a chunk's, under chunk_size)
  Randomness randomness = Randomness::Error;
  // Under chunk_size: the whole batch and where this chunk starts in it, so that random draws
  // can be those of the unchunked call.
  std::int64_t full_batch_size = 0;
  std::int64_t chunk_start = 0;
};

using BatchRule =
    std::function<BatchedValues(const BatchedValues& inputs, const Attrs& attrs, const BatchContext& context)>;

class BatchRuleRegistry {
 public:
  static const BatchRuleRegistry& instance();
  // The op's rule: the innermost ScopedBatchRule of this thread, else the built-in one.
  const BatchRule* find(const std::string& op) const;
  // The rule of `op` itself: the one it carries when it has own rules (a custom function, NOTE:
  // [custom functions]; nullptr when it has no vmap rule), else the one found by its name.
  const BatchRule* find(const OpDef& op) const;
  void add(const std::string& op, BatchRule rule);
  // The built-in rules (replacements for a scope are not listed).
  const std::map<std::string, BatchRule, std::less<>>& all() const { return rules_; }

 private:
  std::map<std::string, BatchRule, std::less<>> rules_;
};

// NOTE: [rules replaced for a scope]
// The rule registries are built once, from the op families' registration functions, and are
// immutable after. Tests replace one op's rule for as long as an RAII object lives
// (ScopedBatchRule here, ScopedJvpRule and ScopedTransposeRule in ad_rules.h): a mutant backend
// puts a deliberately wrong rule in place to show that the property suite catches it, and a test
// that registers a new op through OpRegistry::add gives it its rules this way (an op without a
// built-in rule gains one). The registries' find sees the innermost replacement made on the
// calling thread: a transform runs on one thread (each thread has its own interpreter stack), so a
// replacement never leaks into another thread's run. Replacements of one op nest, and destroying
// one uncovers what it hid.
class ScopedBatchRule {
 public:
  ScopedBatchRule(std::string op, BatchRule rule);
  ~ScopedBatchRule();
  ScopedBatchRule(const ScopedBatchRule&) = delete;
  ScopedBatchRule& operator=(const ScopedBatchRule&) = delete;

 private:
  std::string op_;
  BatchRule rule_;
};

// One per op family, each in reference/rules/<family>.cpp.
void register_unary_batch_rules(BatchRuleRegistry& registry);
void register_binary_batch_rules(BatchRuleRegistry& registry);
void register_reduce_batch_rules(BatchRuleRegistry& registry);
void register_linalg_batch_rules(BatchRuleRegistry& registry);
void register_scan_batch_rules(BatchRuleRegistry& registry);
void register_view_batch_rules(BatchRuleRegistry& registry);
void register_view_copy_batch_rules(BatchRuleRegistry& registry);
void register_index_batch_rules(BatchRuleRegistry& registry);
void register_conversion_batch_rules(BatchRuleRegistry& registry);
void register_creation_batch_rules(BatchRuleRegistry& registry);
void register_random_batch_rules(BatchRuleRegistry& registry);

}  // namespace funcspec::transforms
