#pragma once
// NOTE: [generated programs]
// The properties check laws on programs nobody wrote by hand: random DAGs of op calls drawn from the
// op catalogue. Validity comes from the sample database (NOTE: [op samples]) rather than from a
// second, hand-kept table of what each op accepts: every step is one sample call of an op, and a
// floating argument may instead take an earlier step's result of exactly the sample's shape and
// dtype, which is what makes the program a DAG and not a list of unrelated calls. The program is run
// once on the reference as it is built, so shape inference is the catalogue's own.
//
// Other values of the same program (the examples of a batch, the points of a difference quotient)
// come from further draws of the same samples: same shapes, dtypes and layouts, other values, still
// inside each op's domain.
//
// A program is generated from a ProgramPlan of small integers. RapidCheck shrinks the plan (fewer
// steps, smaller choices: the first op of the catalogue, the first sample, no chaining, plain
// layouts), so a counterexample shrinks to a short program of simple calls.
#include <rapidcheck.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "conformance/case/case.h"
#include "reference/ops/op_def.h"

namespace funcspec::properties {

// How an input's memory is laid out (the case's TensorLayout); values never change with it except
// for Expanded, whose values are constant along the expanded dim, as an expand() makes them.
enum class InputLayout { AsSampled, Transposed, SlicedWithStep, Expanded };
std::string_view input_layout_name(InputLayout layout);

struct ProgramOptions {
  int max_steps = 4;
  int max_outputs = 3;
  std::vector<DType> floating_dtypes{DType::Float64, DType::Float32};
  // Which ops a step may call, beyond the kinds every program excludes (random, in-place, out=,
  // value-dependent shapes, scalar extraction). Empty: every other op with samples.
  std::function<bool(const OpDef&)> admits;
  // The first output is a rank-0 floating tensor (a final sum is appended when needed): what grad
  // and hessian differentiate.
  bool scalar_first_output = false;
  // Every output is floating (what vjp needs a cotangent for).
  bool floating_outputs_only = false;
  bool strided_inputs = true;
  // The most elements the program's tensor inputs may hold together: Jacobians and Hessians grow as
  // products of sizes, and a law checked on 24 numbers catches what it would catch on 4096.
  std::int64_t max_input_elements = 96;
  // Every program calls this op (a catalogue-driven check of one op): "" for none.
  std::string required_op;
  // The gradient laws compare derivatives with finite differences and with each other: a step
  // whose derivative there is a convention, not the function's (OpSampleSpec::
  // derivative_convention), is not drawn (NOTE: [derivative conventions in generated programs]).
  bool derivatives_compared = false;
};

struct PlanStep {
  unsigned op = 0;                // index into the admitted ops
  unsigned sample = 0;            // index into the op's samples
  unsigned chain = 0;             // 0: fresh inputs only; k: feed the (k-1)-th earlier result where shapes allow
  std::vector<unsigned> layouts;  // per fresh input, an InputLayout index
};
struct ProgramPlan {
  unsigned dtype = 0;  // index into ProgramOptions::floating_dtypes
  std::uint32_t sample_seed = 0;
  std::vector<PlanStep> steps;
};

// Where an input's values come from: slot `slot` of sample `sample` of `op`, laid out as `layout`.
struct InputOrigin {
  std::string op;
  std::size_t sample = 0;
  std::size_t slot = 0;
  InputLayout layout = InputLayout::AsSampled;
};

struct GeneratedProgram {
  conformance::Case program;  // inputs x0.., steps, outputs; no transforms, no expectation
  DType floating = DType::Float64;
  std::uint64_t sample_seed = 0;
  std::vector<InputOrigin> origins;  // one per input of `program`, literals included
  // "x0: float64[2, 3] transposed; v0 = sin(x0); ..." for counterexamples.
  std::string describe() const;
};

rc::Gen<ProgramPlan> gen_program_plan(const ProgramOptions& options);

// The program a plan describes, or nothing when the plan does not give one (no admitted op, a
// required op that cannot be placed, a sample that raises, a scalar result that cannot be made).
std::optional<GeneratedProgram> build_program(const ProgramPlan& plan, const ProgramOptions& options);

// Inside a RapidCheck property: a program, discarding plans that give none and logging the program
// for the counterexample report.
GeneratedProgram draw_program(const ProgramOptions& options);

// The ops the programs drawn by draw_program on this thread call, since the last clear, sorted and
// without repeats: what the runner groups a law's failures by (NOTE: [distinct failures]).
void clear_drawn_ops();
const std::vector<std::string>& drawn_ops();

// The inputs of draw `draw` (draw 0 is the program's own): same names, shapes, dtypes and layouts.
// A sample whose later draw changes shape keeps draw 0's values for that input.
std::vector<conformance::CaseInput> draw_inputs(const GeneratedProgram& program, int draw);

// The ops a program may call under `options`, in catalogue order.
std::vector<const OpDef*> admitted_ops(const ProgramOptions& options);

}  // namespace funcspec::properties
