#pragma once
// Automatic differentiation over pytrees, as torch.func: grad, grad_and_value, vjp, jvp,
// linearize, jacrev, jacfwd, hessian (docs/SPEC.md, AD; docs/autodiff.md). Forward mode runs f
// under a jvp level (NOTE: [dual tensors]); reverse mode linearizes f on a tape and transposes it
// (NOTE: [reverse mode]). Every transform composes with every other and with vmap, to any depth.
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "reference/transforms/pytree.h"
#include "reference/transforms/randomness.h"
#include "reference/transforms/vmap.h"

namespace funcspec::transforms {

// The arguments a derivative is taken with respect to: one position (its derivative comes back
// bare) or a tuple of positions (a tuple of derivatives), as torch.func's argnums. Negative
// positions count from the end; a position out of range or repeated is ad_invalid_argnums.
struct Argnums {
  std::vector<std::int64_t> positions{0};
  bool tuple = false;
  static Argnums one(std::int64_t position) { return {{position}, false}; }
  static Argnums many(std::vector<std::int64_t> positions) { return {std::move(positions), true}; }
};

struct GradOptions {
  Argnums argnums;
  bool has_aux = false;  // f returns (output, aux); aux comes back as it was computed
};

// grad(f)(args): the gradient of f's rank-0 floating result with respect to argnums, with the
// structure of those arguments; (gradient, aux) with has_aux.
PyFunction grad(PyFunction f, GradOptions options = {});
// (gradient, value), or (gradient, (value, aux)) with has_aux.
PyFunction grad_and_value(PyFunction f, GradOptions options = {});

struct VjpResult {
  PyTree output;
  // Cotangents shaped like `output` -> a tuple with one cotangent tree per primal (None at
  // leaves that are not tensors). Callable any number of times.
  std::function<PyTree(const PyTree& cotangents)> vjp_fn;
  PyTree aux;  // None without has_aux
};
VjpResult vjp(const PyFunction& f, const std::vector<PyTree>& primals, bool has_aux = false);

struct JvpResult {
  PyTree output;
  PyTree tangent;  // shaped like output
  PyTree aux;      // None without has_aux
};
// `tangents` has the structure of `primals`; a None leaf is a zero tangent (an extension of
// torch.func, which takes a tensor for every primal).
JvpResult jvp(const PyFunction& f, const std::vector<PyTree>& primals, const std::vector<PyTree>& tangents,
              bool has_aux = false);

struct LinearizeResult {
  PyTree output;
  // Tangents shaped like the primals -> the output's tangent, without running f again.
  std::function<PyTree(const std::vector<PyTree>& tangents)> jvp_fn;
  std::size_t linear_ops = 0;  // ops jvp_fn runs per call: the recorded linear map, not f
};
LinearizeResult linearize(const PyFunction& f, const std::vector<PyTree>& primals);

struct JacrevOptions {
  Argnums argnums;
  bool has_aux = false;
  std::optional<std::int64_t> chunk_size;  // rows of the Jacobian computed at a time; same result
};
// The Jacobian: for each output leaf, the structure of argnums with a tensor of shape
// output.shape + input.shape at each leaf; (jacobian, aux) with has_aux.
PyFunction jacrev(PyFunction f, JacrevOptions options = {});

struct JacfwdOptions {
  Argnums argnums;
  bool has_aux = false;
  Randomness randomness = Randomness::Error;  // f runs under vmap over the basis tangents
};
PyFunction jacfwd(PyFunction f, JacfwdOptions options = {});

// jacfwd(jacrev(f, argnums), argnums).
PyFunction hessian(PyFunction f, Argnums argnums = {});

}  // namespace funcspec::transforms
