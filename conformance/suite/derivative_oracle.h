#pragma once
// The truth of the generated AD families (docs/SPEC.md AD-8.x): an op call as a function of its
// floating inputs, evaluated by the reference in the oracle dtype (50 digits), and the routes that
// compute its derivatives there: central finite differences (with kink detection), forward mode,
// Jacobians and Hessians. A family takes its expectation from a route other than the one its case
// exercises, so a run against the reference checks the reference too.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "conformance/samples/sample_program.h"
#include "reference/core/tensor.h"
#include "reference/ops/attrs.h"
#include "reference/transforms/autodiff.h"
#include "reference/transforms/vmap.h"

namespace funcspec::conformance::ad {

using transforms::PyFunction;
using transforms::PyTree;

// An op call as a function of its floating tensor inputs; the other inputs stay fixed. The call
// is the sample's program (NOTE: [non-unique results]): readout ∘ op ∘ domain, the bare op where
// the sample's spec declares none, so every derivative checked is one of that program.
struct OpFunction {
  std::string op;
  Attrs attrs;
  TensorList inputs;                  // the sample's, with floating ones in the computing dtype
  std::vector<std::size_t> floating;  // positions of the differentiated inputs
  std::vector<std::size_t> results;   // positions of the floating results (of the program)
  samples::SampleProgram program = {};

  TensorList run(const TensorList& args) const;
  PyFunction tuple_function() const;
  // s = sum_k sum(r_k * w_k): a scalar through every floating result.
  Tensor scalarized(const TensorList& args, const TensorList& weights) const;
  PyFunction scalar_function(const TensorList& weights) const;
};

// `t` in `dtype` when it is a floating tensor (not a wrapped number); else `t` itself.
Tensor in_dtype(const Tensor& t, DType dtype);
TensorList in_dtype(const TensorList& tensors, DType dtype);
OpFunction in_oracle(const OpFunction& f);
TensorList primals_of(const OpFunction& f);

// Standard normal values of `shape` (drawn in float64, seeded), rounded to `dtype`.
Tensor random_tensor(const Shape& shape, DType dtype, std::uint64_t seed);

// Central differences of `value` along `direction` in the oracle dtype; `kink` reports points where
// the one-sided differences disagree (the derivative there is a choice, not a limit).
struct Difference {
  TensorList derivative;
  bool kink = false;
};
using VectorFunction = std::function<TensorList(const TensorList&)>;
Difference central_difference(const VectorFunction& value, const TensorList& at, const TensorList& direction);

// The reference's own jvp of `value` at `at` along `direction`: the specified derivative, for
// points where no limit exists.
TensorList forward_derivative(const VectorFunction& value, const TensorList& at, const TensorList& direction);

bool any_non_finite(const TensorList& tensors);

// argnums selecting each of n arguments, as a tuple.
transforms::Argnums every_argument(std::size_t n);
std::vector<PyTree> as_arguments(const TensorList& tensors);
// The tensors of a tuple of tuples, as [i][j].
std::vector<std::vector<Tensor>> nested_blocks(const PyTree& tree);

// The Jacobian blocks d r_k / d x_j by forward mode (true) or reverse mode, in the oracle dtype.
std::vector<std::vector<Tensor>> oracle_jacobian(const OpFunction& oracle, bool forward);

// The second derivative blocks [a][b] = d/dx_b (ds/dx_a) of s = sum(r * w), in the oracle dtype,
// by reverse over reverse (forward = false) or forward over forward (true).
std::vector<std::vector<Tensor>> oracle_second_derivative(const OpFunction& oracle, const TensorList& weights,
                                                          bool forward);

}  // namespace funcspec::conformance::ad
