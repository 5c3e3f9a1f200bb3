#pragma once
// NOTE: [non-unique results]
// Some ops return results that are not functions of their inputs: eigh's eigenvectors are fixed
// only up to the sign of each, svd's singular vectors up to a joint sign of u_k and v_k, qr's Q and
// R up to the sign of column k of Q taken with row k of R. A backend that chooses another sign is
// right, so comparing the raw results would fail it; comparing something weaker (a reconstruction
// alone) could pass a wrong one. And some ops are specified as functions on a domain smaller than
// their inputs' (eigh and cholesky of symmetric matrices): off it, their derivatives are
// conventions on which PyTorch and JAX differ.
//
// So an op's sample spec may declare a program around the op (SPEC OPS-4.1, OPS-4.2):
// - a *domain map*: op calls applied to the sample's floating inputs before the op (symmetrize A as
//   A + Aᵀ, which is symmetric bit for bit and needs no constant), so the op is checked as a
//   function on its domain;
// - a *readout*: op calls applied to the op's results that are invariant to exactly the declared
//   freedom and complete (they determine the results up to that freedom, so a wrong result changes
//   them): eigh's eigenvalues and projectors v_k v_kᵀ, svd's S and outer products u_k v_kᵀ.
// The program readout ∘ op ∘ domain replaces the bare op everywhere a sample is checked: its steps
// become steps of every generated case (values against the oracle, meta, vmap against the loop,
// every AD family), so a peer runs the same program natively, and the derivative oracle
// (conformance/suite/derivative_oracle.h) and the catalogue-wide sample checks evaluate it too.
#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "reference/core/tensor.h"
#include "reference/ops/attrs.h"

namespace funcspec::samples {

struct OpSample;
struct OpSampleSpec;

// One op call of a program, on names: `outs = op(args..., **attrs)`.
struct ProgramStep {
  std::vector<std::string> outs;
  std::string op;
  std::vector<std::string> args;
  Attrs attrs;
};

// The program around one sample's op call. Names: the sample's inputs are x0, x1, ...; the op's
// results are y0, y1, ...; anything else a step writes is the program's own.
struct SampleProgram {
  // Run first. The op then reads its input i from `mapped_inputs[i]` where given, else from x{i}.
  std::vector<ProgramStep> domain;
  std::map<std::size_t, std::string> mapped_inputs;
  // Run on the op's results (`op_results` of them); the program's results are `results` (names of
  // y's or of readout steps' outs), in order. Empty `results`: the op's results are the program's.
  std::vector<ProgramStep> readout;
  std::size_t op_results = 0;
  std::vector<std::string> results;
  // Why the readout is complete (it determines the op's results up to exactly the freedom).
  std::string why_complete;
  // The spec clauses every case built from the program checks besides its family's (docs/SPEC.md
  // OPS-4.x and the op's own).
  std::vector<std::string> clauses;

  bool trivial() const { return domain.empty() && results.empty(); }

  // Appends the program's clauses that `clauses` lacks.
  void add_clauses_to(std::vector<std::string>& clauses) const;
};

// Adds the domain map onto symmetric matrices, A ↦ A + Aᵀ (SPEC OPS-4.2), of the op's input 0: the
// sum commutes, so the result is symmetric bit for bit, and it needs no constant (the factor 2 it
// leaves against (A + Aᵀ)/2 is the samples' to allow for). eigh's, eigvalsh's and cholesky's.
void map_input_onto_symmetric_matrices(SampleProgram& program);

// The sample's program: the spec's (OpSampleSpec::program), the bare op where it declares none.
SampleProgram sample_program(const OpSampleSpec& spec, const OpSample& sample);

// readout ∘ op ∘ domain on `inputs` (the sample's inputs, in any dtype, on any device).
TensorList run_program(const std::string& op, const SampleProgram& program, const TensorList& inputs,
                       const Attrs& attrs);

// The program as steps over other names: input i of the program is `inputs[i]` (nullopt: absent),
// the program's results are written to `results` (one name each), the op's own results when the
// program is trivial, and every other name it writes gets `prefix` in front.
struct RenamedProgram {
  std::vector<ProgramStep> steps;
  // Index of the op's own call among `steps`.
  std::size_t op_step = 0;
  // The op's inputs as `steps` name them (nullopt: absent).
  std::vector<std::optional<std::string>> op_args;
};
RenamedProgram renamed_program(const std::string& op, const SampleProgram& program, const Attrs& attrs,
                               const std::vector<std::optional<std::string>>& inputs,
                               const std::vector<std::string>& results, const std::string& prefix);

// How many results the program has for a call whose op returns `op_result_count` tensors.
std::size_t program_result_count(const SampleProgram& program, std::size_t op_result_count);

}  // namespace funcspec::samples
