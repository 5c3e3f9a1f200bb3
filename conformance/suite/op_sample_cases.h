#pragma once
// NOTE: [op sample cases]
// The op sample database (NOTE: [op samples]) becomes conformance tests: each sample call is a
// one-step case whose expectation the reference computes in the oracle dtype and rounds to the
// dtype the op produces, with a tolerance translated from the op's stated oracle tolerance. So a
// backend is held to the exact values (where the op is exact) or to the oracle within the bound
// the catalogue states, never to the reference's own float64 rounding.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "conformance/oracles/value_tolerance.h"
#include "conformance/samples/op_samples.h"
#include "conformance/suite/conformance_test.h"

namespace funcspec::conformance {

// One sample call of one op, as generated for a test: enough to build the case later.
struct SampleCall {
  const samples::OpSampleSpec* spec = nullptr;
  samples::OpSample sample;
  DType floating = DType::Float64;  // the dtype of the sample's floating inputs
  std::uint64_t seed = 0;           // the random ops' seed (the case's seed)
};

// The case checking the op's values (and, for in-place and out= ops, the tensors it writes).
Case op_value_case(const SampleCall& call, const std::string& id, std::vector<std::string> clauses, Tier tier);

// The case checking what the op infers on meta: the shapes and dtypes it produces on cpu, the
// error kind it raises there, or data_dependent_on_meta for ops whose result shape needs values.
Case op_meta_case(const SampleCall& call, const std::string& id, std::vector<std::string> clauses, Tier tier);

// The sample calls of every op, in op-name order: draw 0 of each (op, floating dtype) is the one
// every tier runs; higher tiers add further draws of the sample values. Throws nothing: a
// generator that fails yields a call with no spec.sample and the failure in `generation_error`.
struct SampleDraw {
  std::vector<SampleCall> calls;
  std::string generation_error;
};
SampleDraw draw_samples(const samples::OpSampleSpec& spec, DType floating, std::uint64_t seed, int draw);

// The name of the sample's input i in a case: x0, x1, ...
std::string sample_input_name(std::size_t i);

// The sample's program (NOTE: [non-unique results]) as case steps: its input i is `inputs[i]`
// (nullopt: absent), its results are written to `results`, and its other names get `prefix`.
std::vector<OpCall> program_calls(const std::string& op, const samples::SampleProgram& program, const Attrs& attrs,
                                  const std::vector<std::optional<std::string>>& inputs,
                                  const std::vector<std::string>& results, const std::string& prefix);

// The sample's program on `inputs` (the sample's, in any dtype): the bare op unless its spec declares one.
TensorList run_sample_program(const SampleCall& call, const TensorList& inputs);

// The case skeleton: the sample's inputs (x0, x1, ...), the call of the op with the sample's
// attributes (inside its program, NOTE: [non-unique results]), its results (the program's) named
// r0, r1, ...; no outputs or expectation yet.
Case one_step_case(const SampleCall& call, const std::string& id, std::vector<std::string> clauses, Tier tier,
                   std::size_t result_count);

// "OPS-VALUES/add/float64/2-broadcast-row" style name parts: lower-case, [a-z0-9.-] only.
std::string id_slug(const std::string& text);

// How many draws of sample values a tier runs (1 at smoke and pr).
int sample_draws(Tier tier);

}  // namespace funcspec::conformance
