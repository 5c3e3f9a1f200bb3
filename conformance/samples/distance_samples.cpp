// Samples of the norms and distances (docs/ops/distance.md). Their special points (zero vectors,
// zero distances, ties of the inf-norm, the renorm threshold) are declared in
// special_point_declarations.cpp, so that every family samples them.
#include <fmt/format.h>

#include <algorithm>

#include <limits>

#include "conformance/samples/op_samples.h"
#include "reference/ops/dispatch.h"

namespace funcspec::samples {
namespace {

constexpr double kInfiniteOrder = std::numeric_limits<double>::infinity();

// The orders the issue lists: 0, 1, 2, +-inf, and other positive and negative values.
constexpr double kOrders[] = {0.0, 1.0, 2.0, kInfiniteOrder, -kInfiniteOrder, 3.0, 0.5, -1.0, -0.5};

Attrs norm_order_attr(const char* name, double p) { return {{name, Scalar(p)}}; }

std::vector<OpSample> vector_norm_samples(DType f, SampleRng& rng) {
  using Dims = std::vector<std::int64_t>;
  std::vector<OpSample> out;
  for (double ord : kOrders) {
    auto with = [&](Attrs attrs) {
      attrs.set("ord", Scalar(ord));
      return attrs;
    };
    const std::string p = fmt::format(" ord={}", ord);
    out.push_back({{rng.tensor({2, 3}, f)}, with({}), "[2,3] every dim" + p});
    out.push_back({{rng.tensor({2, 3}, f)}, with({{"dim", Dims{1}}}), "[2,3] dim 1" + p});
    out.push_back({{rng.strided_tensor({3, 2}, f)},
                   with({{"dim", Dims{0}}, {"keepdim", true}}),
                   "[3,2] transposed, dim 0 keepdim" + p});
  }
  out.push_back({{rng.tensor({2, 2, 3}, f)}, {{"dim", Dims{0, -1}}}, "two dims"});
  out.push_back({{rng.tensor({2, 2, 3}, f)}, {{"dim", Dims{}}, {"keepdim", true}}, "dim=[] is every dim, keepdim"});
  out.push_back({{rng.tensor({}, f)}, {}, "rank 0"});
  out.push_back({{rng.tensor({}, f)}, norm_order_attr("ord", -1.0), "rank 0, ord=-1"});
  out.push_back({{rng.tensor({1, 1}, f)}, norm_order_attr("ord", kInfiniteOrder), "1x1, ord=inf"});
  out.push_back({{rng.tensor({0, 3}, f)}, {}, "empty, ord=2 gives 0"});
  out.push_back({{rng.tensor({0, 3}, f)}, {{"dim", Dims{1}}, {"ord", Scalar(-1.0)}}, "empty kept dim, ord=-1"});
  out.push_back({{rng.tensor({2, 3}, f)}, {{"dtype", DType::Float64}}, "dtype=float64"});
  out.push_back({{rng.tensor({0, 3}, f)}, norm_order_attr("ord", kInfiniteOrder), "empty, ord=inf is rejected"});
  out.push_back({{rng.tensor({2, 0}, f)}, {{"dim", Dims{1}}, {"ord", Scalar(-2.0)}}, "empty dim, ord=-2 is rejected"});
  out.push_back({{rng.tensor({3}, DType::Int64)}, {}, "int64 is rejected"});
  // A narrowing dtype (float64 x, dtype=float32) is rejected too, but the oracle dtype stands for
  // every floating dtype and cannot narrow: tests/reference/ops/distance_test.cpp checks it.
  out.push_back({{rng.tensor({3}, f)}, {{"dtype", DType::Int64}}, "integer dtype is rejected"});
  out.push_back({{rng.tensor({3}, f)}, {{"ord", Scalar(true)}}, "bool ord is rejected"});
  out.push_back({{rng.tensor({2, 3}, f)}, {{"dim", Dims{2}}}, "dim out of range"});
  return out;
}

std::vector<OpSample> dist_samples(DType f, SampleRng& rng) {
  std::vector<OpSample> out;
  for (double p : kOrders) {
    out.push_back(
        {{rng.tensor({2, 3}, f), rng.tensor({3}, f)}, norm_order_attr("p", p), fmt::format("broadcast, p={}", p)});
  }
  out.push_back({{rng.strided_tensor({3, 2}, f), rng.tensor({3, 2}, f)}, {}, "transposed self"});
  out.push_back({{rng.tensor({}, f), rng.tensor({}, f)}, {}, "rank 0"});
  out.push_back({{rng.tensor({2}, f), rng.tensor({2}, DType::Float64)}, {}, "dtypes promote"});
  out.push_back({{rng.tensor({0}, f), rng.tensor({0}, f)}, {}, "empty, p=2 gives 0"});
  out.push_back(
      {{rng.tensor({0}, f), rng.tensor({0}, f)}, norm_order_attr("p", kInfiniteOrder), "empty, p=inf is rejected"});
  out.push_back({{rng.tensor({2}, f), rng.tensor({3}, f)}, {}, "shapes that do not broadcast"});
  out.push_back({{rng.tensor({2}, DType::Int64), rng.tensor({2}, DType::Int64)}, {}, "int64 is rejected"});
  return out;
}

Attrs renorm_attrs(double p, std::int64_t dim, double maxnorm) {
  return {{"p", Scalar(p)}, {"dim", dim}, {"maxnorm", Scalar(maxnorm)}};
}

// Values in [-2, 2) with maxnorm 1.5: some slices are scaled and some are not.
std::vector<OpSample> renorm_samples(DType f, SampleRng& rng) {
  std::vector<OpSample> out;
  for (double p : {1.0, 2.0, 3.0, 0.5, kInfiniteOrder}) {
    out.push_back({{rng.tensor({3, 2}, f)}, renorm_attrs(p, 0, 1.5), fmt::format("[3,2] rows, p={}", p)});
  }
  out.push_back({{rng.tensor({3, 2}, f)}, renorm_attrs(2.0, -1, 1.5), "columns (dim -1)"});
  out.push_back({{rng.tensor({2, 2, 3}, f)}, renorm_attrs(2.0, 1, 2.0), "[2,2,3] dim 1"});
  out.push_back({{rng.strided_tensor({3, 2}, f)}, renorm_attrs(2.0, 0, 1.0), "transposed"});
  out.push_back({{rng.tensor({2, 2}, f)}, renorm_attrs(2.0, 0, 0.0), "maxnorm 0"});
  out.push_back({{rng.tensor({2, 2}, f)}, renorm_attrs(2.0, 0, 100.0), "nothing exceeds maxnorm"});
  out.push_back({{rng.tensor({1, 1}, f)}, renorm_attrs(2.0, 0, 2.5), "1x1 below maxnorm"});
  out.push_back({{rng.tensor({0, 2}, f)}, renorm_attrs(2.0, 0, 1.0), "no slices"});
  out.push_back({{rng.tensor({2, 0}, f)}, renorm_attrs(2.0, 0, 1.0), "empty slices"});
  out.push_back({{rng.tensor({3}, f)}, renorm_attrs(2.0, 0, 1.0), "1-D is rejected"});
  out.push_back({{rng.tensor({2, 2}, f)}, renorm_attrs(0.0, 0, 1.0), "p=0 is rejected"});
  out.push_back({{rng.tensor({2, 2}, f)}, renorm_attrs(-1.0, 0, 1.0), "negative p is rejected"});
  out.push_back({{rng.tensor({2, 2}, f)}, renorm_attrs(2.0, 0, -1.0), "negative maxnorm is rejected"});
  out.push_back({{rng.tensor({2, 2}, f)}, renorm_attrs(2.0, 2, 1.0), "dim out of range"});
  out.push_back({{rng.tensor({2, 2}, DType::Int64)}, renorm_attrs(2.0, 0, 1.0), "int64 is rejected"});
  return out;
}

// renorm with maxnorm = 0 sends every nonzero slice to 0 and leaves a zero slice as it is, so the
// function is 0 all around a zero slice, where the specified derivative is the identity's
// (PyTorch's renorm_backward; docs/ops/distance.md): differences there see 0.
std::string renorm_convention(const TensorList& inputs, const Attrs& attrs, const TensorList&) {
  const Tensor& x = inputs[0];
  if (x.dim() < 2 || !is_floating(x.dtype()) || attrs.get_scalar("maxnorm").to<double>() != 0.0) return "";
  const std::int64_t dim = attrs.get_int("dim") < 0 ? attrs.get_int("dim") + x.dim() : attrs.get_int("dim");
  if (dim < 0 || dim >= x.dim()) return "";
  std::int64_t inner = 1;
  for (std::int64_t d = dim + 1; d < x.dim(); ++d) inner *= x.size(d);
  std::vector<bool> nonzero(static_cast<std::size_t>(x.size(dim)), false);
  const std::vector<double> values = x.to_vector<double>();
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (values[i] != 0.0)
      nonzero[static_cast<std::size_t>((static_cast<std::int64_t>(i) / inner) % x.size(dim))] = true;
  }
  const bool zero_slice = std::find(nonzero.begin(), nonzero.end(), false) != nonzero.end();
  return zero_slice ? "renorm with maxnorm 0 at a zero slice: the identity's derivative, where the function is 0 all "
                      "around"
                    : "";
}

// The samples both cross products share, with `dim_attr` naming the dim of size 3 (linalg_cross's
// default is -1, cross's the first dim of size 3 of self).
std::vector<OpSample> cross_samples(DType f, SampleRng& rng, bool linalg) {
  auto at = [&](std::int64_t dim) { return Attrs{{"dim", dim}}; };
  std::vector<OpSample> out{
      {{rng.tensor({3}, f), rng.tensor({3}, f)}, {}, "two 3-vectors"},
      {{rng.tensor({2, 3}, f), rng.tensor({2, 3}, f)}, at(1), "batch of 2, dim 1"},
      {{rng.tensor({3, 2}, f), rng.tensor({3, 2}, f)}, at(0), "vectors along dim 0"},
      {{rng.tensor({2, 1, 3}, f), rng.tensor({1, 2, 3}, f)}, at(-1), "batch dims broadcast"},
      {{rng.strided_tensor({2, 3}, f), rng.tensor({2, 3}, f)}, at(-1), "transposed self"},
      {{rng.tensor({0, 3}, f), rng.tensor({0, 3}, f)}, at(1), "batch of 0"},
      {{rng.tensor({3}, DType::Int64, -5, 5), rng.tensor({3}, DType::Int64, -5, 5)}, {}, "int64"},
      {{rng.tensor({2, 4}, f), rng.tensor({2, 4}, f)}, at(1), "length 4 is rejected"},
      {{rng.tensor({2, 3}, f), rng.tensor({3}, f)}, at(-1), "ranks differ: rejected"},
      {{rng.tensor({3}, f), rng.tensor({3}, DType::Int64, -5, 5)}, {}, "floating with int64: rejected"},
      {{rng.tensor({3}, DType::Bool), rng.tensor({3}, DType::Bool)}, {}, "bool is rejected"},
      {{rng.tensor({3}, f), rng.tensor({3}, f)}, at(1), "dim out of range"},
  };
  if (linalg) {
    out.push_back({{rng.tensor({3, 3}, f), rng.tensor({3, 3}, f)}, {}, "3x3, default dim -1"});
  } else {
    out.push_back({{rng.tensor({2, 3, 3}, f), rng.tensor({2, 3, 3}, f)}, {}, "dim=None: the first dim of size 3"});
    out.push_back({{rng.tensor({1, 3}, f), rng.tensor({3, 3}, f)}, {}, "dim=None looks at self only"});
    out.push_back({{rng.tensor({2, 4}, f), rng.tensor({2, 4}, f)}, {}, "dim=None without a dim of size 3"});
  }
  return out;
}

std::vector<OpSample> diag_samples(DType f, SampleRng& rng) {
  auto at = [](std::int64_t diagonal) { return Attrs{{"diagonal", diagonal}}; };
  return {
      {{rng.tensor({3}, f)}, {}, "1-D: a 3x3 matrix"},
      {{rng.tensor({2}, f)}, at(1), "1-D, diagonal 1: 3x3"},
      {{rng.tensor({2}, f)}, at(-2), "1-D, diagonal -2: 4x4"},
      {{rng.tensor({2, 3}, f)}, {}, "2-D: the main diagonal"},
      {{rng.tensor({2, 3}, f)}, at(1), "2-D, diagonal 1"},
      {{rng.tensor({2, 3}, f)}, at(-1), "2-D, diagonal -1"},
      {{rng.tensor({2, 3}, f)}, at(5), "2-D, diagonal past the matrix: empty"},
      {{rng.strided_tensor({3, 2}, f)}, at(0), "2-D transposed"},
      {{rng.strided_tensor({3}, f)}, at(0), "1-D strided"},
      {{rng.tensor({1, 1}, f)}, {}, "1x1"},
      {{rng.tensor({0}, f)}, {}, "empty 1-D: 0x0"},
      {{rng.tensor({0, 3}, f)}, {}, "0x3: empty diagonal"},
      {{rng.tensor({3}, DType::Int64, -5, 5)}, {}, "int64"},
      {{rng.tensor({2, 2}, DType::Bool)}, {}, "bool"},
      {{rng.tensor({}, f)}, {}, "rank 0 is rejected"},
      {{rng.tensor({2, 2, 2}, f)}, {}, "rank 3 is rejected"},
  };
}

std::vector<OpSample> multi_dot_samples(DType f, SampleRng& rng) {
  return {
      {{rng.tensor({2, 3}, f), rng.tensor({3, 2}, f), rng.tensor({2, 3}, f)}, {}, "three matrices"},
      {{rng.tensor({2}, f), rng.tensor({2, 2}, f), rng.tensor({2}, f)}, {}, "1-D first and last: rank 0"},
      {{rng.tensor({3}, f), rng.tensor({3, 2}, f)}, {}, "1-D first"},
      {{rng.tensor({2, 3}, f), rng.tensor({3}, f)}, {}, "1-D last"},
      {{rng.tensor({3}, f), rng.tensor({3}, f)}, {}, "two vectors: their dot product"},
      {{rng.tensor({2, 3}, f), rng.tensor({3, 1}, f), rng.tensor({1, 3}, f), rng.tensor({3, 2}, f)},
       {},
       "four matrices"},
      {{rng.strided_tensor({2, 3}, f), rng.strided_tensor({3, 2}, f)}, {}, "transposed operands"},
      {{rng.tensor({1, 1}, f), rng.tensor({1, 1}, f)}, {}, "1x1"},
      {{rng.tensor({2, 0}, f), rng.tensor({0, 3}, f)}, {}, "empty contraction gives zeros"},
      {{rng.tensor({0, 2}, f), rng.tensor({2, 2}, f), rng.tensor({2, 3}, f)}, {}, "no rows"},
      {{rng.tensor({2, 2}, DType::Int64, -5, 5), rng.tensor({2, 2}, DType::Int64, -5, 5)}, {}, "int64"},
      {{rng.tensor({2, 3}, f)}, {}, "one tensor is rejected"},
      {{rng.tensor({2, 3}, f), rng.tensor({2, 3}, f)}, {}, "sizes that do not chain"},
      {{rng.tensor({2, 3}, f), rng.tensor({3}, f), rng.tensor({3}, f)}, {}, "a 1-D middle tensor is rejected"},
      {{rng.tensor({2, 3}, f), rng.tensor({1, 3, 2}, f)}, {}, "a 3-D tensor is rejected"},
      {{rng.tensor({2, 2}, f), rng.tensor({2, 2}, DType::Int64, -5, 5)}, {}, "floating with int64: rejected"},
  };
}

Attrs correction(std::int64_t c) { return {{"correction", c}}; }

// Weights are drawn where PyTorch accepts them (fweights >= 1, aweights > 0): negative or all-zero
// weights are an error there and a value here (NOTE: [cov weights]).
std::vector<OpSample> cov_samples(DType f, SampleRng& rng) {
  auto fweights = [&] { return rng.tensor({3}, DType::Int64, 1, 4); };
  auto aweights = [&] { return rng.tensor({3}, f, 0.5, 2.0); };
  const Tensor none;
  return {
      {{rng.tensor({2, 3}, f)}, {}, "2 variables, 3 observations"},
      {{rng.tensor({3, 4}, f)}, {}, "3 variables, 4 observations"},
      {{rng.tensor({4}, f)}, {}, "1-D: one variable, rank 0"},
      {{rng.tensor({1, 3}, f)}, {}, "one row: rank 0"},
      {{rng.tensor({}, f)}, {}, "rank 0: NaN (0 / 0)"},
      {{rng.strided_tensor({2, 3}, f)}, {}, "transposed"},
      {{rng.tensor({2, 3}, f)}, correction(0), "correction=0"},
      {{rng.tensor({2, 3}, f)}, correction(2), "correction=2"},
      {{rng.tensor({2, 3}, f)}, correction(3), "correction = N: divides by 0"},
      {{rng.tensor({2, 3}, f)}, correction(5), "correction > N: divides by 0"},
      {{rng.tensor({2, 3}, f), fweights(), none}, {}, "fweights"},
      {{rng.tensor({2, 3}, f), none, aweights()}, {}, "aweights"},
      {{rng.tensor({2, 3}, f), fweights(), aweights()}, {}, "fweights and aweights"},
      {{rng.tensor({2, 3}, f), fweights(), aweights()}, correction(0), "both weights, correction=0"},
      {{rng.tensor({2, 3}, f), none, aweights()}, correction(4), "aweights, correction beyond the effective count"},
      {{rng.tensor({2, 0}, f)}, {}, "no observations: NaN"},
      {{rng.tensor({0, 3}, f)}, {}, "no variables: 0x0"},
      {{rng.tensor({2, 3}, DType::Int64, -5, 5)}, {}, "int64 computes in float32"},
      {{rng.tensor({2, 2, 2}, f)}, {}, "rank 3 is rejected"},
      {{rng.tensor({2, 3}, DType::Bool)}, {}, "bool is rejected"},
      {{rng.tensor({2, 3}, f), rng.tensor({3}, f), none}, {}, "floating fweights are rejected"},
      {{rng.tensor({2, 3}, f), none, rng.tensor({3}, DType::Int64, 1, 4)}, {}, "integer aweights are rejected"},
      {{rng.tensor({2, 3}, f), rng.tensor({2}, DType::Int64, 1, 4), none}, {}, "fweights of the wrong length"},
      {{rng.tensor({2, 3}, f), rng.tensor({1, 3}, DType::Int64, 1, 4), none}, {}, "2-D fweights are rejected"},
  };
}

std::vector<OpSample> corrcoef_samples(DType f, SampleRng& rng) {
  return {
      {{rng.tensor({2, 3}, f)}, {}, "2 variables, 3 observations"},
      {{rng.tensor({3, 4}, f)}, {}, "3 variables, 4 observations"},
      {{rng.tensor({4}, f)}, {}, "1-D: 1 (c / c)"},
      {{rng.strided_tensor({3, 2}, f)}, {}, "transposed"},
      {{from_values({1.0, 1.0, 1.0, 0.5, -1.0, 1.5}, {2, 3}, f)}, {}, "a constant variable: NaN row and column"},
      {{rng.tensor({0, 3}, f)}, {}, "no variables: 0x0"},
      {{rng.tensor({2, 3}, DType::Int64, -5, 5)}, {}, "int64 computes in float32"},
      {{rng.tensor({2, 2, 2}, f)}, {}, "rank 3 is rejected"},
  };
}

constexpr const char* kModeIfNecessary = "use_mm_for_euclid_dist_if_necessary";
constexpr const char* kModeMatrixProduct = "use_mm_for_euclid_dist";
constexpr const char* kModeDirect = "donot_use_mm_for_euclid_dist";

Attrs distance_p(double p) { return {{"p", p}}; }
Attrs cdist_attrs(double p, const char* mode) { return {{"p", p}, {"compute_mode", std::string(mode)}}; }

// The matrix-product mode's samples keep x1 in [-2, -1)^M and x2 in [1, 2)^M, at least 2·sqrt(M)
// apart: near coincident points that mode's error is of order sqrt(eps) (NOTE: [cdist compute modes]).
std::vector<OpSample> cdist_samples(DType f, SampleRng& rng) {
  std::vector<OpSample> out;
  for (double p : {0.0, 1.0, 2.0, kInfiniteOrder, 3.0, 0.5}) {
    out.push_back({{rng.tensor({2, 3}, f), rng.tensor({2, 3}, f)}, distance_p(p), fmt::format("2 by 2 rows, p={}", p)});
  }
  auto apart = [&](const Shape& a, const Shape& b) {
    return TensorList{rng.tensor(a, f, -2.0, -1.0), rng.tensor(b, f, 1.0, 2.0)};
  };
  out.push_back({apart({2, 3}, {3, 3}), cdist_attrs(2.0, kModeMatrixProduct), "use_mm_for_euclid_dist"});
  out.push_back({apart({2, 2, 2}, {1, 3, 2}), cdist_attrs(2.0, kModeMatrixProduct), "use_mm, batch broadcast"});
  out.push_back({apart({26, 1}, {2, 1}), cdist_attrs(2.0, kModeIfNecessary), "if_necessary with 26 rows: mm"});
  out.push_back({apart({26, 1}, {2, 1}), cdist_attrs(2.0, kModeDirect), "donot_use_mm with 26 rows"});
  out.push_back({{rng.tensor({2, 3}, f), rng.tensor({2, 3}, f)},
                 cdist_attrs(1.0, kModeMatrixProduct),
                 "use_mm with p=1 computes directly"});
  out.push_back({{rng.tensor({2, 2, 2}, f), rng.tensor({2, 1, 2}, f)}, {}, "batched"});
  out.push_back({{rng.tensor({2, 1, 1, 2}, f), rng.tensor({3, 2, 2}, f)}, {}, "batch dims broadcast"});
  out.push_back({{rng.strided_tensor({3, 2}, f), rng.tensor({1, 3}, f)}, distance_p(1.0), "transposed x1"});
  out.push_back({{rng.tensor({1, 1}, f), rng.tensor({1, 1}, f)}, {}, "1x1"});
  out.push_back({{rng.tensor({0, 3}, f), rng.tensor({2, 3}, f)}, {}, "no rows in x1"});
  out.push_back({{rng.tensor({0, 2, 3}, f), rng.tensor({0, 2, 3}, f)}, {}, "batch of 0"});
  out.push_back({{rng.tensor({2, 0}, f), rng.tensor({3, 0}, f)}, distance_p(kInfiniteOrder), "no features: 0"});
  out.push_back({{rng.tensor({3}, f), rng.tensor({3}, f)}, {}, "1-D is rejected"});
  out.push_back({{rng.tensor({2, 3}, f), rng.tensor({2, 2}, f)}, {}, "columns differ: rejected"});
  out.push_back({{rng.tensor({2, 3}, f), rng.tensor({2, 3}, f)}, distance_p(-1.0), "negative p is rejected"});
  out.push_back({{rng.tensor({2, 3}, f), rng.tensor({2, 3}, f)}, cdist_attrs(2.0, "bogus"), "unknown compute_mode"});
  out.push_back({{rng.tensor({2, 3}, DType::Int64), rng.tensor({2, 3}, DType::Int64)}, {}, "int64 is rejected"});
  out.push_back({{rng.tensor({2, 3}, f), rng.tensor({2, 3}, DType::Int64)}, {}, "floating with int64: rejected"});
  return out;
}

std::vector<OpSample> pdist_samples(DType f, SampleRng& rng) {
  std::vector<OpSample> out;
  for (double p : {0.0, 1.0, 2.0, kInfiniteOrder, 3.0, 0.5}) {
    out.push_back({{rng.tensor({3, 2}, f)}, distance_p(p), fmt::format("3 rows, p={}", p)});
  }
  out.push_back({{rng.tensor({4, 3}, f)}, {}, "4 rows of 3"});
  out.push_back({{rng.strided_tensor({3, 2}, f)}, {}, "transposed"});
  out.push_back({{rng.tensor({1, 3}, f)}, {}, "one row: no pairs"});
  out.push_back({{rng.tensor({0, 3}, f)}, {}, "no rows"});
  out.push_back({{rng.tensor({3, 0}, f)}, distance_p(kInfiniteOrder), "no features: 0"});
  out.push_back({{rng.tensor({3}, f)}, {}, "1-D is rejected"});
  out.push_back({{rng.tensor({2, 2, 2}, f)}, {}, "3-D is rejected"});
  out.push_back({{rng.tensor({3, 2}, f)}, distance_p(-1.0), "negative p is rejected"});
  out.push_back({{rng.tensor({3, 2}, DType::Int64)}, {}, "int64 is rejected"});
  return out;
}

std::vector<OpSample> cosine_similarity_samples(DType f, SampleRng& rng) {
  auto at = [](std::int64_t dim, double eps = 1e-8) { return Attrs{{"dim", dim}, {"eps", eps}}; };
  return {
      {{rng.tensor({2, 3}, f), rng.tensor({2, 3}, f)}, {}, "rows of 3 (dim 1)"},
      {{rng.tensor({2, 3}, f), rng.tensor({3}, f)}, {}, "broadcast"},
      {{rng.tensor({3, 2}, f), rng.tensor({3, 2}, f)}, at(0), "dim 0"},
      {{rng.tensor({2, 1, 3}, f), rng.tensor({2, 3}, f)}, at(-1), "dim -1, broadcast"},
      {{rng.tensor({3}, f), rng.tensor({3}, f)}, at(0), "1-D"},
      {{rng.strided_tensor({3, 2}, f), rng.tensor({3, 2}, f)}, at(1), "transposed x1"},
      // Below eps the derivative is not that of the value (NOTE: [cosine_similarity eps]), which
      // finite differences would see: eps 0.5 with norms above it; a case file checks the clamp.
      {{rng.tensor({2, 3}, f, 0.5, 2.0), rng.tensor({2, 3}, f)}, at(1, 0.5), "eps 0.5, norms above it"},
      {{rng.tensor({2, 0}, f), rng.tensor({2, 0}, f)}, {}, "empty dim: 0"},
      {{rng.tensor({2, 3}, DType::Int64, -5, 5), rng.tensor({2, 3}, f)}, {}, "int64 with floating promotes"},
      {{rng.tensor({2, 3}, DType::Int64, -5, 5), rng.tensor({2, 3}, DType::Int64, -5, 5)}, {}, "int64 is rejected"},
      {{rng.tensor({2, 3}, f), rng.tensor({4, 3}, f)}, {}, "shapes that do not broadcast"},
      {{rng.tensor({3}, f), rng.tensor({3}, f)}, {}, "dim 1 of 1-D: out of range"},
  };
}

// A call whose x1 or x2 has a norm below eps along dim: there the derivative treats the divisor as
// the norm while the value divides by eps (NOTE: [cosine_similarity eps]), so finite differences
// of the value are not its derivative.
std::string cosine_similarity_below_eps(const TensorList& inputs, const Attrs& attrs, const TensorList&) {
  const std::int64_t dim = attrs.has("dim") ? attrs.get_int("dim") : 1;
  const double eps = attrs.has("eps") ? attrs.get_float("eps") : 1e-8;
  const std::int64_t rank = std::max(inputs.at(0).dim(), inputs.at(1).dim());
  for (const Tensor& x : {inputs.at(0), inputs.at(1)}) {
    if (x.numel() == 0 || !is_floating(x.dtype())) continue;
    // dim counts in the broadcast shape; x's own dims are its trailing ones.
    const std::int64_t d = (dim < 0 ? dim + rank : dim) - (rank - x.dim());
    if (d < 0 || d >= x.dim()) continue;
    const Tensor norms = call_one("vector_norm", {call_one("to_dtype", {x}, {{"dtype", DType::Float64}})},
                                  {{"dim", std::vector<std::int64_t>{d}}});
    for (double n : norms.to_vector<double>()) {
      if (n < eps) return "a norm below eps: the derivative treats the divisor as the norm (SPEC OPS-7.7)";
    }
  }
  return "";
}

std::vector<OpSample> pairwise_distance_samples(DType f, SampleRng& rng) {
  std::vector<OpSample> out;
  for (double p : kOrders) {
    out.push_back({{rng.tensor({2, 3}, f), rng.tensor({2, 3}, f)}, distance_p(p), fmt::format("rows, p={}", p)});
  }
  const Attrs keepdim{{"keepdim", true}};
  const Attrs no_eps{{"eps", 0.0}};
  out.push_back({{rng.tensor({2, 3}, f), rng.tensor({3}, f)}, keepdim, "broadcast, keepdim"});
  out.push_back({{rng.tensor({3}, f), rng.tensor({3}, f)}, no_eps, "1-D, eps 0"});
  out.push_back({{rng.tensor({}, f), rng.tensor({}, f)}, {}, "rank 0"});
  out.push_back({{rng.strided_tensor({3, 2}, f), rng.tensor({3, 2}, f)}, {}, "transposed x1"});
  out.push_back({{rng.tensor({2, 0}, f), rng.tensor({2, 0}, f)}, {}, "no features: 0"});
  out.push_back({{rng.tensor({2, 3}, DType::Int64, -5, 5), rng.tensor({2, 3}, DType::Int64, -5, 5)},
                 {},
                 "int64 computes in float32"});
  out.push_back(
      {{rng.tensor({2, 0}, f), rng.tensor({2, 0}, f)}, distance_p(kInfiniteOrder), "no features, p=inf is rejected"});
  out.push_back({{rng.tensor({2, 3}, f), rng.tensor({4, 3}, f)}, {}, "shapes that do not broadcast"});
  return out;
}

}  // namespace

void register_distance_samples(OpSampleRegistry& registry) {
  // vector_norm and dist are norm (docs/ops/reduce.md: {16, 0.51}) of their input or of a
  // difference rounded once (0.5 ulp of each element, which moves a norm by at most 0.5 ulp
  // relative: no cancellation). A negative order adds the reciprocals of the elements (0.5 ulp each,
  // moving the norm by at most 0.5 ulp) and of the norm (0.5 ulp): float64 17.5 ulps (stated 20);
  // float32 rounds each reciprocal and the norm in float32: 0.5 + 0.51 + 0.5 + 0.5 (stated 2.1).
  registry.add({"vector_norm", vector_norm_samples, {20.0, 2.1, 0.0, 0.0}, ""});
  registry.add({"dist", dist_samples, {20.0, 2.1, 0.0, 0.0}, ""});
  // renorm: the norm (16 ulps), + 1e-7 and the quotient (1 ulp), the product (0.5 ulp); relative
  // errors add: 17.5 (stated 20). float32: the norm rounded once (0.51) and three float32 roundings.
  {
    OpSampleSpec spec{"renorm", renorm_samples, {20.0, 2.1, 0.0, 0.0}, ""};
    spec.derivative_convention = renorm_convention;
    registry.add(std::move(spec));
  }
  // The cross products: each element is p - q for two products of elements in [-2, 2), each
  // product rounded (0.5 ulp of |p|, |q| <= 4) and the difference rounded (0.5 ulp of the result):
  // at most 1.5 ulps of |p| + |q| <= 8, the floor (stated 2 ulps in both dtypes, which round the
  // same way; int64 is exact).
  registry.add(
      {"cross", [](DType f, SampleRng& rng) { return cross_samples(f, rng, false); }, {2.0, 2.0, 8.0, 0.0}, ""});
  registry.add(
      {"linalg_cross", [](DType f, SampleRng& rng) { return cross_samples(f, rng, true); }, {2.0, 2.0, 8.0, 0.0}, ""});
  // diag: copies (exact).
  registry.add({"diag", diag_samples, {}, ""});
  // multi_dot: k operands chained left to right with inner sizes <= 3 and elements in [-2, 2). Each
  // einsum errs by at most γ_3 ≈ 3u of the product of the magnitudes, and the errors accumulate
  // along the chain: (k - 1)·3u·(|A_1|···|A_k|), whose elements are at most 2^4·3·1·3 = 144 for the
  // four-operand sample and 2^3·3·2 = 48 for three: 4.5 eps of the floor 144 (stated 6). float32
  // rounds each einsum's result once (carried in float64 inside): (k - 1)·0.5 eps (stated 2).
  registry.add({"multi_dot", multi_dot_samples, {6.0, 2.0, 144.0, 0.0}, ""});
  // cov: N <= 4 observations of values in [-2, 2) (|x - mean| <= 4). The weighted mean, the centering,
  // the products and their sum err by at most (3N + 4)·u·Σ_k w_k |c_ik||c_jk| (u = eps/2), divided by
  // the normalizer; for the samples Σ w|c||c| / normalizer <= 48 (N = 3, correction 2: 3·16 / 1), so
  // 16u·48 = 384 eps against the floor 64: 6 ulps (stated 16, for the weighted normalizers). float32
  // rounds the centered values, the product sum and the quotient: about 4u of the same sum, 1.5 ulps
  // (stated 4).
  registry.add({"cov", cov_samples, {16.0, 4.0, 64.0, 0.0}, ""});
  // corrcoef: by Cauchy-Schwarz Σ|c_i||c_j| <= (N - 1)·sqrt(c_ii c_jj), so cov's error above is at
  // most (3N + 4)·u relative to sqrt(c_ii c_jj), and the sqrt and two quotients add 2u: 19u, about 10
  // eps of the floor 1 (stated 32, for rows whose spread is well below their magnitude, where the
  // centering's error of the mean, relative to max|x|, is amplified). float32: 8.
  registry.add({"corrcoef", corrcoef_samples, {32.0, 8.0, 1.0, 0.0}, ""});
  // cdist: the direct path is vector_norm of rounded differences ({20, 2.1} relative). The
  // matrix-product path (p = 2) computes s = ||x1||² + ||x2||² - 2·x1·x2 with an error of at most
  // (M + 3)·u·S, S = ||x1||² + ||x2||² <= 8M for elements below 2 in magnitude, and the distance
  // sqrt(s) moves by that over 2·sqrt(s): for points at least δ apart, (M + 3)·u·8M / (2δ), which
  // for the samples (M <= 3, δ >= 2·sqrt(M)) is 2·(M + 3)·sqrt(M)·u ≈ 10.4 eps absolute: with the
  // magnitude floored at the inputs' scale (input_scale 1, max|x| <= 2), about 5 ulps (stated 20; 8
  // for float32, whose products and sums round in float32). The error grows as S / δ: it is a
  // multiple of eps of the inputs' scale squared over the distance, and near coincident points of
  // order sqrt(eps)·scale, which the samples avoid (NOTE: [cdist compute modes]).
  registry.add({"cdist", cdist_samples, {20.0, 8.0, 0.0, 1.0}, ""});
  // pdist: vector_norm of rounded differences, as dist.
  registry.add({"pdist", pdist_samples, {20.0, 2.1, 0.0, 0.0}, ""});
  // cosine_similarity: two norms (16 ulps each, relative), two quotients and the products (0.5 ulp
  // each, relative), then a sum of n <= 3 terms of magnitude <= 1 that cancels: (n - 1)·u of Σ|terms|
  // <= 1 plus the terms' own errors: 35 ulps of 1, the floor (stated 40). float32 computes the norms
  // in float64 and rounds once: 0.51·2 + 1.5 + (n - 1)·0.5: stated 4.
  registry.add(
      {"cosine_similarity", cosine_similarity_samples, {40.0, 4.0, 1.0, 0.0}, "", {}, cosine_similarity_below_eps});
  // pairwise_distance: vector_norm of x1 - x2 + eps, each element rounded twice (1 ulp relative to
  // |x1 - x2| + eps, no cancellation in the norm): {20, 2.1} as dist, plus 0.5: stated {21, 2.6}.
  registry.add({"pairwise_distance", pairwise_distance_samples, {21.0, 2.6, 0.0, 0.0}, ""});
}

}  // namespace funcspec::samples
