#pragma once
// NOTE: [op rules]
// Every op that a transform sees whole (NOTE: [op kinds]: primitives, views, random and dynamic-shape
// ops, the in-place primitive copy_, custom functions) carries its transform rules on its definition,
// OpDef::rules:
//   batch               its batching rule (NOTE: [batching rules]);
//   jvp                 its jvp rule (NOTE: [derivative rules]);
//   transpose           its transpose rule, for the ops jvp rules apply to tangents;
//   non_differentiable  its results never carry a derivative (comparisons, argmax, random draws).
// The transforms ask the op for them (batch_rule(op), jvp_rule(op), ...), so there is one place to
// look and no name to misspell: each family attaches its rules by op name in one registration
// (register_<family>_rules in reference/rules/<family>.cpp) while the catalogue is built, and a name
// the catalogue does not declare stops the build of the catalogue with an error naming it. What a
// kind requires (missing_rules) is checked for every op by a catalogue-wide test. Composites and
// derived variants carry no rules: they decompose before any transform sees them, so a rule on them
// would never run.
//
// Custom functions (NOTE: [custom functions]) build their rules from the user's definition, and the
// linear steps they put on a tape carry a transpose rule made for that call: the same field.
#include <string>
#include <string_view>

#include "reference/transforms/ad_rules.h"
#include "reference/transforms/batch_rules.h"

namespace funcspec {
class OpRegistry;
}

namespace funcspec::transforms {

struct OpRules {
  BatchRule batch;          // empty: the counted for-loop fallback
  JvpRule jvp;              // empty: none (an error if a tangent reaches the op, unless non_differentiable)
  TransposeRule transpose;  // empty: the op is never applied to a tangent
  bool non_differentiable = false;
};

// The rules the transforms use: the innermost replacement made for a scope on this thread (NOTE:
// [rules replaced for a scope]), else the op's own; nullptr where it has none.
const BatchRule* batch_rule(const OpDef& op);
const JvpRule* jvp_rule(const OpDef& op);
const TransposeRule* transpose_rule(const OpDef& op);
// Whether the op's results carry no derivative; false while a replacement jvp rule is in scope.
bool non_differentiable(const OpDef& op);

// What rules `op` lacks for its kind, as a sentence naming them; empty when it has all it needs. A
// transform-visible op with tensor inputs (or a random op) needs a batching rule, since vmap would
// otherwise loop; every transform-visible op needs a jvp rule or the non-differentiable mark; ops
// that decompose, and the scalar extractions (item), must carry none. Custom functions are judged by
// the user's definition, where a missing rule is the specified custom_rule_missing error.
std::string missing_rules(const OpDef& op);

// Attaches rules to the catalogue's ops by name while the catalogue is built (each family's
// register_<family>_rules). An op name the catalogue does not declare, or a second rule of one sort
// for one op, is an internal error naming the op.
class RuleAttacher {
 public:
  explicit RuleAttacher(OpRegistry& catalogue) : catalogue_(catalogue) {}
  void batch(std::string_view op, BatchRule rule);
  void jvp(std::string_view op, JvpRule rule);
  void transpose(std::string_view op, TransposeRule rule);
  void non_differentiable(std::string_view op);
  // The ops declared so far, for families that give every op of theirs the same rule.
  const OpRegistry& catalogue() const { return catalogue_; }

 private:
  OpRules& rules_of(std::string_view op);
  OpRegistry& catalogue_;
};

// Runs every family's registration (reference/rules/registration.h) over the catalogue.
void register_rules(OpRegistry& catalogue);

// NOTE: [rules replaced for a scope]
// The catalogue's rules are attached once, while it is built, and are immutable after. Tests
// replace one op's rule for as long as an RAII object lives: a mutant backend puts a deliberately
// wrong rule in place to show that the property suite catches it, and a test that declares an op
// of its own through OpRegistry::add gives it rules this way. The lookups above see the innermost
// replacement made on the calling thread: a transform runs on one thread (each thread has its own
// interpreter stack), so a replacement never leaks into another thread's run. Replacements of one
// op nest, and destroying one uncovers what it hid. The op is named as in the catalogue; a name it
// does not declare is an unknown_op error.
template <typename Rule>
class ScopedRule {
 public:
  ScopedRule(std::string_view op, Rule rule);
  ~ScopedRule();
  ScopedRule(const ScopedRule&) = delete;
  ScopedRule& operator=(const ScopedRule&) = delete;

 private:
  const OpDef* op_;
  Rule rule_;
};

using ScopedBatchRule = ScopedRule<BatchRule>;
// A jvp rule given to an op marked non-differentiable makes it differentiable for that time.
using ScopedJvpRule = ScopedRule<JvpRule>;
using ScopedTransposeRule = ScopedRule<TransposeRule>;

extern template class ScopedRule<BatchRule>;
extern template class ScopedRule<JvpRule>;
extern template class ScopedRule<TransposeRule>;

}  // namespace funcspec::transforms
