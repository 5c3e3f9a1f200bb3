// The linalg ops' derivative conventions, as predicates on a call (linalg_derivative_conventions.h).
#include "conformance/samples/linalg_derivative_conventions.h"

#include <algorithm>
#include <vector>

#include "reference/ops/dispatch.h"

namespace funcspec::samples {
namespace {

// Whether some matrix of `a` ([*, m, n]) has a rank below min(m, n) under matrix_rank's threshold
// from `tolerances` (atol, rtol; undefined: the default) and `attrs` (hermitian).
bool rank_deficient(const Tensor& a, const TensorList& tolerances, const Attrs& attrs) {
  if (a.numel() == 0) return false;
  TensorList args{a};
  args.insert(args.end(), tolerances.begin(), tolerances.end());
  const Tensor rank = call_one("matrix_rank", args, attrs);
  const std::int64_t full = std::min(a.size(-1), a.size(-2));
  const std::vector<std::int64_t> ranks = rank.to_vector<std::int64_t>();
  return std::any_of(ranks.begin(), ranks.end(), [&](std::int64_t r) { return r < full; });
}

}  // namespace

std::string svd_completion_convention(const TensorList& inputs, const Attrs& attrs, const TensorList&) {
  const Tensor& a = inputs.at(0);
  // A sample may leave full_matrices to its default, True.
  const bool full_matrices = !attrs.has("full_matrices") || attrs.get_bool("full_matrices");
  if (!full_matrices || a.size(-1) == a.size(-2)) return "";
  return "svd's full_matrices completion has PyTorch's zero tangent (SPEC OPS-8.2)";
}

std::string failed_factorization_convention(const TensorList&, const Attrs&, const TensorList& results) {
  const std::vector<std::int64_t> info = results.at(1).to_vector<std::int64_t>();
  if (std::all_of(info.begin(), info.end(), [](std::int64_t i) { return i == 0; })) return "";
  return "past a failed factorization (info > 0) the results have no derivative the spec states";
}

std::string pinv_threshold_convention(const TensorList& inputs, const Attrs& attrs, const TensorList&) {
  if (!rank_deficient(inputs.at(0), TensorList(inputs.begin() + 1, inputs.end()), attrs)) return "";
  return "pinv drops a singular value: PyTorch's constant-rank derivative (SPEC OPS-9.3)";
}

std::string lstsq_threshold_convention(const TensorList& inputs, const Attrs& attrs, const TensorList&) {
  const Tensor& a = inputs.at(0);
  TensorList tolerances{Tensor(), Tensor()};
  if (const std::optional<double> rcond = attrs.get_optional_float("rcond")) {
    tolerances[1] = from_vector(std::vector<double>{std::max(*rcond, 0.0)}, Shape{}, a.dtype());
  }
  if (!rank_deficient(a, tolerances, Attrs{{"hermitian", false}})) return "";
  return "lstsq drops a singular value of A: pinv's constant-rank derivative (SPEC OPS-9.4)";
}

}  // namespace funcspec::samples
