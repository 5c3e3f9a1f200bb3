#pragma once
// NOTE: [property tests]
// A property is a law every transform backend must obey on every program ("vmap equals the loop",
// "vjp is the transpose of jvp"), checked on programs RapidCheck generates (NOTE: [generated
// programs], NOTE: [generated transform stacks]). Each property is one conformance test: it runs
// through the Backend interface like any case, so `funcspec check --backend exec:...` checks an
// external backend's laws too. The truth a property compares with comes from the backend itself (the
// loop against the vmap, jacfwd against jacrev) or from the reference in the oracle dtype (finite
// differences); never from the backend's own answer to the same question.
//
// A violated law is shrunk to a small counterexample and written as an ordinary case file whose
// expectation is the truth the law demands, so `funcspec replay` reproduces the failure without
// RapidCheck. The number of generated programs is the tier's (smoke, pr, nightly, exhaustive); the
// seed is the run's, mixed with the property's id, and printed in the report's note.
//
// Some laws are about the engine's insides (composite compliance needs the engine's checking tensor
// mode; "has a native batching rule" needs its fallback counter). Against any other backend those
// properties report *unsupported*, saying why, rather than passing.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "conformance/backend/backend.h"
#include "conformance/case/case.h"
#include "property_tests/program_generator.h"

namespace funcspec::properties {

// What one generated program concluded.
struct PropertyCheck {
  enum class Outcome { Holds, Violated, Unsupported };
  Outcome outcome = Outcome::Holds;
  std::string message;  // why it was violated or unsupported
  // For a violation: a case whose expectation is what the law demands of the backend's answer.
  std::optional<conformance::Case> counterexample;
  // The largest error seen against the law's tolerance (reported on a pass too).
  double max_abs_error = 0;

  static PropertyCheck holds(double max_abs_error = 0) { return {Outcome::Holds, "", std::nullopt, max_abs_error}; }
  static PropertyCheck unsupported(std::string why) { return {Outcome::Unsupported, std::move(why), std::nullopt, 0}; }
  static PropertyCheck violated(std::string why, std::optional<conformance::Case> counterexample) {
    return {Outcome::Violated, std::move(why), std::move(counterexample), 0};
  }
};

// What a property's body may use while it checks one generated program.
struct PropertyContext {
  conformance::Backend& backend;
  conformance::EvaluateOptions evaluate;
  bool backend_is_reference = false;  // the in-process reference engine (engine-only laws apply)
  conformance::ProgramResult run(const conformance::Case& c) const { return backend.evaluate(c, evaluate); }
};

struct PropertyDef {
  std::string id;                    // "PROP-VMAP/equals-loop": the conformance test's id
  std::string law;                   // one line, for reports and counterexamples
  std::vector<std::string> clauses;  // docs/SPEC.md clauses it checks
  int pr_cases = 50;  // generated programs at the pr tier (smoke: a tenth, nightly: 10x, exhaustive: 50x)
  // Engine-only laws say why other backends cannot take part; empty: any backend.
  std::string engine_only;
  // Checks one program; called inside a RapidCheck property, so it may draw with `*gen` and discard
  // with RC_PRE.
  std::function<PropertyCheck(PropertyContext&)> check;
};

// How many programs a property checks at `tier`.
int cases_at(const PropertyDef& property, conformance::Tier tier);

// Every property of the suite, in a fixed order. One function per file of property_tests/.
std::vector<PropertyDef> all_properties();
// The catalogue-driven properties (those drawing programs from the op catalogue) restricted to
// programs that call `op`: how a newly registered op is put under every law with no new test code.
std::vector<PropertyDef> properties_for_op(const std::string& op);

// `programs` is the base of the programs the catalogue-driven properties draw (each property adds
// what its law needs: a scalar result, floating outputs, ...).
void add_vmap_properties(std::vector<PropertyDef>& out, const ProgramOptions& programs = {});
// vmap over nested arguments and results (engine only: the case format is flat).
void add_pytree_properties(std::vector<PropertyDef>& out, const ProgramOptions& programs = {});
void add_gradient_properties(std::vector<PropertyDef>& out, const ProgramOptions& programs = {});
void add_randomness_properties(std::vector<PropertyDef>& out);
void add_inplace_properties(std::vector<PropertyDef>& out);
void add_error_consistency_properties(std::vector<PropertyDef>& out, const ProgramOptions& programs = {});
// functionalize(f) against f, on programs rewritten to write into their arguments and results.
void add_functionalize_properties(std::vector<PropertyDef>& out, const ProgramOptions& programs = {});
// vmap over functional_call against the loop over the models.
void add_module_properties(std::vector<PropertyDef>& out, const ProgramOptions& programs = {});
// Only composite ops (OpKind::Composite) are drawn.
void add_composite_compliance_properties(std::vector<PropertyDef>& out, const ProgramOptions& programs = {});

}  // namespace funcspec::properties
