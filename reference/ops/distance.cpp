// Norms and distances (docs/ops/distance.md): vector_norm, dist and renorm, composites over the
// `norm` primitive (reduce.cpp), whose derivative already is PyTorch's at a zero norm and at ties of
// the inf-norm, so that the composites inherit those values instead of restating them; and the
// cross products.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "reference/api/conversion.h"
#include "reference/core/promotion.h"
#include "reference/ops/dispatch.h"
#include "reference/ops/op_layer.h"
#include "reference/ops/registration.h"
#include "reference/ops/registry.h"

namespace funcspec {
namespace {

// The dims a vector norm reduces: dim=None and dim=[] mean every dim (PyTorch's rule).
std::vector<std::int64_t> norm_reduced_dims(const Tensor& self, const std::optional<std::vector<std::int64_t>>& dims,
                                            std::string_view op) {
  std::vector<std::int64_t> out;
  if (!dims || dims->empty()) {
    for (std::int64_t d = 0; d < self.dim(); ++d) out.push_back(d);
    return out;
  }
  return wrap_dims(*dims, self.dim(), op);
}

// A norm whose order has no identity (negative or infinite) is undefined over nothing, as in
// PyTorch: every reduced dim must be non-empty (dim=None reduces them all).
void check_norm_has_elements(std::string_view op, const Tensor& self, const std::vector<std::int64_t>& dims,
                             double ord) {
  if (ord >= 0 && !std::isinf(ord)) return;
  for (std::int64_t d : dims) {
    FUNCSPEC_CHECK(self.size(d) != 0, ErrorKind::InvalidArgument,
                   "[{}] the {} norm over dim {} is undefined: that dim is empty (shape {})", op, ord, d,
                   shape_to_string(self.shape()));
  }
}

double norm_order_of(std::string_view op, const Scalar& ord) {
  FUNCSPEC_CHECK(!ord.is_bool(), ErrorKind::InvalidArgument, "[{}] ord {} is a bool", op, ord.to_string());
  return ord.to<double>();
}

Attrs norm_attrs(double ord, const std::vector<std::int64_t>& dims, bool keepdim) {
  return {{"p", Scalar(ord)}, {"dim", dims}, {"keepdim", keepdim}};
}

// NOTE: [negative norm orders]
// For p < 0, (Σ|x|^p)^(1/p) is 1 / ||1/x||_{-p}, and the `norm` primitive (orders >= 0) computes the
// latter. A zero element makes the norm 0 (|0|^p = inf, inf^(1/p) = 0), and PyTorch's norm_backward
// gives every element of such a vector the derivative 0 (its share sgn(x)|x|^(p-1) is masked at the
// zero and scaled by norm^(1-p) = 0 elsewhere). The reciprocals would meet 1/0 there, so zeros are
// replaced by 1 before them and the vector's result is multiplied by a 0/1 mask: the value is 0 (NaN
// where the vector also holds a NaN, as PyTorch's sum of inf and NaN), every derivative is 0.
// Elsewhere d/dx_i of 1 / ||1/x||_q is sgn(x_i)|x_i|^(p-1) ||x||_p^(1-p), PyTorch's formula.
Tensor negative_order_norm(const Tensor& x, double ord, const std::vector<std::int64_t>& dims, bool keepdim) {
  const Tensor is_zero = call_one("eq", {x, ops::lit(0.0)});
  const Tensor safe = call_one("where", {is_zero, ops::lit(1.0), x});
  const Tensor inverse_norm = call_one("norm", {call_one("reciprocal", {safe})}, norm_attrs(-ord, dims, keepdim));
  const Tensor has_zero = call_one("any", {is_zero}, {{"dim", dims}, {"keepdim", keepdim}});
  const Tensor keep = call_one("to_dtype", {call_one("logical_not", {has_zero})}, {{"dtype", x.dtype()}});
  return call_one("mul", {call_one("reciprocal", {inverse_norm}), keep});
}

// ||x||_ord over dims for a floating x (the shared core of vector_norm, dist and the distances).
Tensor vector_norm_of(std::string_view op, const Tensor& x, double ord, const std::vector<std::int64_t>& dims,
                      bool keepdim) {
  check_norm_has_elements(op, x, dims, ord);
  if (ord < 0 && !std::isinf(ord)) return negative_order_norm(x, ord, dims, keepdim);
  return call_one("norm", {x}, norm_attrs(ord, dims, keepdim));
}

void register_vector_norm(OpRegistry& registry) {
  OpDef& op = registry.add(
      "vector_norm(Tensor x, Scalar ord=2, int[]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor",
      OpKind::Composite, "distance",
      "(sum |x|^ord)^(1/ord) over dim (linalg.vector_norm); ord 0 counts non-zeros, +-inf is max/min |x|, "
      "negative ord allowed; dtype casts x first");
  op.decompose = [](const TensorList& in, const Attrs& attrs) -> TensorList {
    check_dtype("vector_norm", "x", in[0].dtype(), DTypeSet::Floating);
    Tensor x = in[0];
    // The oracle dtype stands for every floating dtype (it computes the reference's values at any
    // of them), so a requested dtype neither narrows nor casts it.
    const std::optional<DType> dtype = attrs.get_optional_dtype("dtype");
    if (dtype) check_dtype("vector_norm", "dtype", *dtype, DTypeSet::Floating);
    if (dtype && x.dtype() != DType::Oracle) {
      FUNCSPEC_CHECK(promote_types(x.dtype(), *dtype) == *dtype, ErrorKind::DtypeNotSupported,
                     "[vector_norm] x of dtype {} does not convert to dtype {} without narrowing",
                     dtype_name(x.dtype()), dtype_name(*dtype));
      x = cast_to(x, *dtype);
    }
    const double ord = norm_order_of("vector_norm", attrs.get_scalar("ord"));
    const std::vector<std::int64_t> dims = norm_reduced_dims(x, attrs.get_optional_int_list("dim"), "vector_norm");
    return {vector_norm_of("vector_norm", x, ord, dims, attrs.get_bool("keepdim"))};
  };
}

void register_dist(OpRegistry& registry) {
  OpDef& op = registry.add("dist(Tensor self, Tensor other, Scalar p=2) -> Tensor", OpKind::Composite, "distance",
                           "vector_norm(self - other, p) over every element of the broadcast, dtypes promoted");
  op.decompose = [](const TensorList& in, const Attrs& attrs) -> TensorList {
    check_dtype("dist", "self", in[0].dtype(), DTypeSet::Floating);
    check_dtype("dist", "other", in[1].dtype(), DTypeSet::Floating);
    const DType dtype = result_type(in);
    const Tensor difference = call_one("sub", {cast_to(in[0], dtype), cast_to(in[1], dtype)});
    const double p = norm_order_of("dist", attrs.get_scalar("p"));
    return {vector_norm_of("dist", difference, p, norm_reduced_dims(difference, std::nullopt, "dist"), false)};
  };
}

// NOTE: [renorm threshold]
// renorm scales each slice along dim whose p-norm exceeds maxnorm by maxnorm / (norm + 1e-7), as
// PyTorch. A slice whose norm equals maxnorm is not scaled (the comparison is strict), and its
// derivative is the identity's, as PyTorch's renorm_backward (its where(norm > maxnorm, ...)). The
// composite x * where(norm > maxnorm, maxnorm / (norm + 1e-7), 1) differentiates to exactly that
// rule: on the scaled side factor·(g - x·Σ(x·g)·norm'(x)/(norm + 1e-7)), elsewhere g.
void register_renorm(OpRegistry& registry) {
  OpDef& op =
      registry.add("renorm(Tensor self, Scalar p, int dim, Scalar maxnorm) -> Tensor", OpKind::Composite, "distance",
                   "each slice along dim whose p-norm (over the other dims) exceeds maxnorm is scaled by "
                   "maxnorm / (norm + 1e-7)");
  op.decompose = [](const TensorList& in, const Attrs& attrs) -> TensorList {
    const Tensor& self = in[0];
    check_dtype("renorm", "self", self.dtype(), DTypeSet::Floating);
    FUNCSPEC_CHECK(self.dim() >= 2, ErrorKind::ShapeMismatch, "[renorm] self needs at least 2 dims but has {}",
                   self.dim());
    const double p = norm_order_of("renorm", attrs.get_scalar("p"));
    FUNCSPEC_CHECK(p > 0, ErrorKind::InvalidArgument, "[renorm] p must be positive but is {}", p);
    const Scalar maxnorm = attrs.get_scalar("maxnorm");
    FUNCSPEC_CHECK(!maxnorm.is_bool() && maxnorm.to<double>() >= 0, ErrorKind::InvalidArgument,
                   "[renorm] maxnorm must be >= 0 but is {}", maxnorm.to_string());
    const std::int64_t dim = wrap_dim(attrs.get_int("dim"), self.dim(), "renorm");
    std::vector<std::int64_t> others;
    for (std::int64_t d = 0; d < self.dim(); ++d) {
      if (d != dim) others.push_back(d);
    }
    const Tensor norm = vector_norm_of("renorm", self, p, others, true);
    const Tensor scale = call_one("div", {ops::lit(maxnorm), call_one("add", {norm, ops::lit(1e-7)})});
    const Tensor exceeds = call_one("gt", {norm, ops::lit(maxnorm)});
    return {call_one("mul", {self, call_one("where", {exceeds, scale, ops::lit(1.0)})})};
  };
}

// The cross product along dim of two tensors of one rank whose other dims broadcast, as
// torch.linalg.cross: (a × b)_i = a_{i+1} b_{i+2} - a_{i+2} b_{i+1}, indices mod 3, written with
// roll so that every rule comes from roll, mul and sub (bilinear: no special point).
Tensor cross_product(std::string_view op, const Tensor& self, const Tensor& other, std::int64_t dim) {
  check_dtype(op, "self", self.dtype(), DTypeSet::NoBool);
  FUNCSPEC_CHECK(self.dtype() == other.dtype(), ErrorKind::DtypeNotSupported,
                 "[{}] expected self and other to have the same dtype but got {} and {}", op, dtype_name(self.dtype()),
                 dtype_name(other.dtype()));
  FUNCSPEC_CHECK(self.dim() == other.dim(), ErrorKind::ShapeMismatch,
                 "[{}] self of shape {} and other of shape {} must have the same number of dims", op,
                 shape_to_string(self.shape()), shape_to_string(other.shape()));
  FUNCSPEC_CHECK(self.size(dim) == 3 && other.size(dim) == 3, ErrorKind::ShapeMismatch,
                 "[{}] self and other must have length 3 along dim {} but have {} and {}", op, dim, self.size(dim),
                 other.size(dim));
  broadcast_shapes(std::vector<Shape>{self.shape(), other.shape()}, op);
  auto shifted = [dim](const Tensor& t, std::int64_t by) {
    return call_one("roll", {t},
                    {{"shifts", std::vector<std::int64_t>{-by}}, {"dims", std::vector<std::int64_t>{dim}}});
  };
  const Tensor first = call_one("mul", {shifted(self, 1), shifted(other, 2)});
  const Tensor second = call_one("mul", {shifted(self, 2), shifted(other, 1)});
  return call_one("sub", {first, second});
}

// NOTE: [cross default dim]
// torch.cross without dim takes the first dim of size 3 of self (not of the broadcast shape), and
// PyTorch 2 warns that this default will become -1, linalg.cross's. The spec keeps the documented
// present behaviour (SPEC OPS-7.3); a self with no dim of size 3 is shape_mismatch.
void register_cross(OpRegistry& registry) {
  {
    OpDef& op = registry.add("cross(Tensor self, Tensor other, int? dim=None) -> Tensor", OpKind::Composite, "distance",
                             "linalg_cross along dim; dim=None is the first dim of size 3 of self (torch.cross)");
    op.decompose = [](const TensorList& in, const Attrs& attrs) -> TensorList {
      const Tensor &self = in[0], &other = in[1];
      std::optional<std::int64_t> dim = attrs.get_optional_int("dim");
      if (dim) {
        dim = wrap_dim(*dim, self.dim(), "cross");
      } else {
        for (std::int64_t d = 0; d < self.dim() && !dim; ++d) {
          if (self.size(d) == 3) dim = d;
        }
        FUNCSPEC_CHECK(dim.has_value(), ErrorKind::ShapeMismatch, "[cross] self of shape {} has no dim of size 3",
                       shape_to_string(self.shape()));
      }
      return {cross_product("cross", self, other, *dim)};
    };
  }
  {
    OpDef& op =
        registry.add("linalg_cross(Tensor self, Tensor other, *, int dim=-1) -> Tensor", OpKind::Composite, "distance",
                     "cross product of 3-vectors along dim (linalg.cross); same rank, other dims broadcast");
    op.decompose = [](const TensorList& in, const Attrs& attrs) -> TensorList {
      const Tensor &self = in[0], &other = in[1];
      return {cross_product("linalg_cross", self, other, wrap_dim(attrs.get_int("dim"), self.dim(), "linalg_cross"))};
    };
  }
}

void register_diag(OpRegistry& registry) {
  OpDef& op = registry.add("diag(Tensor self, int diagonal=0) -> Tensor", OpKind::Composite, "distance",
                           "1-D: the square matrix with self on the given diagonal; 2-D: that diagonal, copied");
  op.decompose = [](const TensorList& in, const Attrs& attrs) -> TensorList {
    const Tensor& self = in[0];
    FUNCSPEC_CHECK(self.dim() == 1 || self.dim() == 2, ErrorKind::ShapeMismatch,
                   "[diag] self must be 1-D or 2-D but has shape {}", shape_to_string(self.shape()));
    const std::int64_t diagonal = attrs.get_int("diagonal");
    const Attrs plane{{"offset", diagonal}, {"dim1", std::int64_t{0}}, {"dim2", std::int64_t{1}}};
    if (self.dim() == 1) return {call_one("diag_embed", {self}, plane)};
    // A copy, as torch.diag's result (the diagonal view would alias self).
    return {call_one("clone", {call_one("diagonal", {self}, plane)})};
  };
}

// NOTE: [multi_dot order]
// multi_dot multiplies left to right. PyTorch picks the order that needs the fewest scalar
// multiplications, a performance choice: every order gives the same value in exact arithmetic, and
// the spec asks for the values of any order within the stated tolerance (SPEC OPS-7.4).
void register_multi_dot(OpRegistry& registry) {
  OpDef& op = registry.add("multi_dot(Tensor[] tensors) -> Tensor", OpKind::Composite, "distance",
                           "the chained matrix product (linalg.multi_dot): 2-D operands, except that the first may "
                           "be 1-D (a row) and the last 1-D (a column), whose dims the result drops");
  op.decompose = [](const TensorList& in, const Attrs&) -> TensorList {
    const std::size_t n = in.size();
    FUNCSPEC_CHECK(n >= 2, ErrorKind::InvalidArgument, "[multi_dot] expected at least 2 tensors but got {}", n);
    for (std::size_t i = 0; i < n; ++i) {
      const bool end = i == 0 || i + 1 == n;
      FUNCSPEC_CHECK(in[i].dim() == 2 || (end && in[i].dim() == 1), ErrorKind::ShapeMismatch,
                     "[multi_dot] tensor {} of shape {} must be {}", i, shape_to_string(in[i].shape()),
                     end ? "1-D or 2-D" : "2-D");
      check_dtype("multi_dot", "tensors", in[i].dtype(), DTypeSet::NoBool);
      FUNCSPEC_CHECK(in[i].dtype() == in[0].dtype(), ErrorKind::DtypeNotSupported,
                     "[multi_dot] all tensors must have one dtype but tensor 0 is {} and tensor {} is {}",
                     dtype_name(in[0].dtype()), i, dtype_name(in[i].dtype()));
    }
    const bool row = in.front().dim() == 1, column = in.back().dim() == 1;
    TensorList matrices;
    for (std::size_t i = 0; i < n; ++i) {
      const Tensor& t = in[i];
      if (t.dim() == 2) {
        matrices.push_back(t);
      } else {
        const Shape shape = i == 0 ? Shape{1, t.size(0)} : Shape{t.size(0), 1};
        matrices.push_back(call_one("reshape", {t}, {{"shape", shape}}));
      }
    }
    for (std::size_t i = 0; i + 1 < n; ++i) {
      FUNCSPEC_CHECK(matrices[i].size(1) == matrices[i + 1].size(0), ErrorKind::ShapeMismatch,
                     "[multi_dot] tensors {} and {} with shapes {} and {} cannot be multiplied", i, i + 1,
                     shape_to_string(in[i].shape()), shape_to_string(in[i + 1].shape()));
    }
    Tensor product = matrices[0];
    for (std::size_t i = 1; i < n; ++i) {
      product = call_one("einsum", {product, matrices[i]}, {{"equation", std::string("ij,jk->ik")}});
    }
    Shape result;
    if (!row) result.push_back(product.size(0));
    if (!column) result.push_back(product.size(1));
    return {call_one("reshape", {product}, {{"shape", result}})};
  };
}

// NOTE: [cov weights]
// cov follows torch.cov's definition step by step (rows are variables, columns observations):
// w = fweights · aweights (either alone, or none); the mean of each row weighted by w; the
// normalizer N - correction without weights, Σw with correction 0, Σw - correction without
// aweights, and Σw - correction·Σ(w·aweights)/Σw otherwise, replaced by 0 where it is not positive
// (so a correction beyond the effective sample count divides by 0: inf, or NaN over 0, as PyTorch);
// then (x - mean)·((x - mean)·w)ᵀ / normalizer, with the dims of size 1 dropped. The weights'
// values are not checked: a composite does not read values (SPEC OPS-3.1), so negative weights are
// used as given and weights summing to 0 give NaN, where PyTorch raises (docs/ops/distance.md).
Tensor covariance(const Tensor& input, const Tensor& fweights, const Tensor& aweights, std::int64_t correction) {
  check_dtype("cov", "self", input.dtype(), DTypeSet::NoBool);
  FUNCSPEC_CHECK(input.dim() <= 2, ErrorKind::ShapeMismatch, "[cov] self must have at most 2 dims but has shape {}",
                 shape_to_string(input.shape()));
  DType dtype = to_floating(input.dtype());
  const std::int64_t observations = input.dim() < 2 ? input.numel() : input.size(1);
  auto check_weights = [&](std::string_view name, const Tensor& weights) {
    FUNCSPEC_CHECK(weights.dim() <= 1, ErrorKind::ShapeMismatch, "[cov] {} must have at most 1 dim but has shape {}",
                   name, shape_to_string(weights.shape()));
    FUNCSPEC_CHECK(weights.numel() == observations, ErrorKind::ShapeMismatch,
                   "[cov] {} has {} elements but self has {} observations", name, weights.numel(), observations);
  };
  if (fweights.defined()) {
    check_dtype("cov", "fweights", fweights.dtype(), DTypeSet::Integral);
    check_weights("fweights", fweights);
  }
  if (aweights.defined()) {
    check_dtype("cov", "aweights", aweights.dtype(), DTypeSet::Floating);
    check_weights("aweights", aweights);
    dtype = promote_types(dtype, aweights.dtype());
  }
  const Shape rows = input.dim() < 2 ? Shape{1, observations} : input.shape();
  const Tensor x = call_one("reshape", {cast_to(input, dtype)}, {{"shape", rows}});
  const Attrs over_observations{{"dim", std::vector<std::int64_t>{1}}, {"keepdim", true}};
  Tensor w;
  if (fweights.defined()) w = call_one("reshape", {cast_to(fweights, dtype)}, {{"shape", Shape{observations}}});
  if (aweights.defined()) {
    const Tensor a = call_one("reshape", {cast_to(aweights, dtype)}, {{"shape", Shape{observations}}});
    w = w.defined() ? call_one("mul", {w, a}) : a;
  }
  Tensor centered, normalizer;
  if (!w.defined()) {
    centered = call_one("sub", {x, call_one("mean", {x}, over_observations)});
    normalizer = ops::lit(std::max(static_cast<double>(observations - correction), 0.0));
    const Tensor product = call_one("einsum", {centered, centered}, {{"equation", std::string("ij,kj->ik")}});
    return call_one("div", {product, normalizer});
  }
  const Tensor total = call_one("sum", {w});
  const Tensor mean = call_one("div", {call_one("sum", {call_one("mul", {x, w})}, over_observations), total});
  centered = call_one("sub", {x, mean});
  if (correction == 0) {
    normalizer = total;
  } else if (!aweights.defined()) {
    normalizer = call_one("sub", {total, ops::lit(correction)});
  } else {
    const Tensor a = call_one("reshape", {cast_to(aweights, dtype)}, {{"shape", Shape{observations}}});
    const Tensor effective = call_one("div", {call_one("sum", {call_one("mul", {w, a})}), total});
    normalizer = call_one("sub", {total, call_one("mul", {effective, ops::lit(correction)})});
  }
  normalizer = call_one("where", {call_one("le", {normalizer, ops::lit(0.0)}), ops::lit(0.0), normalizer});
  const Tensor product =
      call_one("einsum", {centered, call_one("mul", {centered, w})}, {{"equation", std::string("ij,kj->ik")}});
  return call_one("div", {product, normalizer});
}

// cov's [V, V] result with its dims of size 1 dropped (torch.cov squeezes: one variable gives rank 0).
Tensor squeezed(const Tensor& c) {
  Shape shape;
  for (std::int64_t d = 0; d < c.dim(); ++d) {
    if (c.size(d) != 1) shape.push_back(c.size(d));
  }
  return call_one("reshape", {c}, {{"shape", shape}});
}

void register_cov(OpRegistry& registry) {
  {
    OpDef& op = registry.add(
        "cov(Tensor self, *, int correction=1, Tensor? fweights=None, Tensor? aweights=None) -> Tensor",
        OpKind::Composite, "distance",
        "covariance of the rows (variables) over the columns (observations), torch.cov; 1-D is one variable");
    op.decompose = [](const TensorList& in, const Attrs& attrs) -> TensorList {
      const Tensor fweights = in.size() > 1 ? in[1] : Tensor();
      const Tensor aweights = in.size() > 2 ? in[2] : Tensor();
      return {squeezed(covariance(in[0], fweights, aweights, attrs.get_int("correction")))};
    };
  }
  {
    OpDef& op = registry.add("corrcoef(Tensor self) -> Tensor", OpKind::Composite, "distance",
                             "Pearson correlation of the rows, cov / (σ_i σ_j) clamped to [-1, 1] (torch.corrcoef)");
    op.decompose = [](const TensorList& in, const Attrs&) -> TensorList {
      const Tensor c = squeezed(covariance(in[0], Tensor(), Tensor(), 1));
      if (c.dim() == 0) return {call_one("div", {c, c})};
      const Tensor deviation = call_one("sqrt", {call_one("diagonal", {c})});
      const Tensor rows = call_one("unsqueeze", {deviation}, {{"dim", std::int64_t{1}}});
      const Tensor columns = call_one("unsqueeze", {deviation}, {{"dim", std::int64_t{0}}});
      const Tensor scaled = call_one("div", {call_one("div", {c, rows}), columns});
      return {call_one("clamp", {scaled, ops::lit(-1.0), ops::lit(1.0)})};
    };
  }
}

// NOTE: [cdist and pdist derivatives]
// torch.cdist and torch.pdist have backward formulas of their own (_cdist_backward,
// _pdist_backward). They agree with `norm`'s rule (0 at a zero distance, the masked shares of p < 1)
// except at ties of the inf-norm: each element whose |difference| equals the distance gets the
// whole sign(difference), where `norm` splits it evenly. So the inf-distance here is the max of
// |difference| (a constant) plus Σ over the tied elements of (|d| - detach(|d|)), which is 0 in
// value and gives each tied element its whole derivative. With no features (M = 0) every distance
// is 0, for every p, as PyTorch (which gives 0 even for p = inf).
Tensor pairwise_norm(std::string_view op, const Tensor& differences, double p) {
  const Shape result_shape(differences.shape().begin(), differences.shape().end() - 1);
  if (differences.size(-1) == 0) {
    return call_one("full", {},
                    {{"size", result_shape},
                     {"fill_value", Scalar(0.0)},
                     {"dtype", differences.dtype()},
                     {"device", std::string(device_name(differences.device()))}});
  }
  const std::vector<std::int64_t> last{differences.dim() - 1};
  if (!std::isinf(p) || p < 0) return vector_norm_of(op, differences, p, last, false);
  const Tensor magnitude = call_one("abs", {differences});
  const Tensor largest = ops::detach(call_one("amax", {magnitude}, {{"dim", last}, {"keepdim", true}}));
  const Tensor tied = call_one("to_dtype", {call_one("eq", {magnitude, largest})}, {{"dtype", differences.dtype()}});
  const Tensor moved = call_one("sub", {magnitude, ops::detach(magnitude)});
  const Tensor shares = call_one("sum", {call_one("mul", {tied, moved})}, {{"dim", last}, {"keepdim", false}});
  return call_one("add", {call_one("view", {largest}, {{"size", result_shape}}), shares});
}

double distance_order(std::string_view op, const Attrs& attrs) {
  const double p = attrs.get_float("p");
  FUNCSPEC_CHECK(p >= 0, ErrorKind::InvalidArgument, "[{}] p must be non-negative but is {}", op, p);
  return p;
}

// NOTE: [cdist compute modes]
// For p = 2, torch.cdist may compute ||x1||² + ||x2||² - 2·x1·x2 with a matrix product, clamped at 0,
// then its square root: "use_mm_for_euclid_dist" always, the default
// "use_mm_for_euclid_dist_if_necessary" when x1 or x2 has more than 25 rows, never with
// "donot_use_mm_for_euclid_dist". The reference computes that formula too, so its values cancel as
// PyTorch's do (docs/ops/distance.md states the tolerance in terms of the inputs' scale). PyTorch's
// derivative of this mode (_euclidean_dist_backward) is (x1 - x2) / distance, 0 where the distance
// is 0: that of the exact distance. So the result is the formula's value (detached) plus the exact
// distance minus itself detached, 0 in value, which carries `norm`'s derivative.
bool uses_matrix_product(std::string_view mode, double p, std::int64_t rows1, std::int64_t rows2) {
  if (mode == "use_mm_for_euclid_dist_if_necessary") return p == 2 && (rows1 > 25 || rows2 > 25);
  if (mode == "use_mm_for_euclid_dist") return p == 2;
  FUNCSPEC_CHECK(mode == "donot_use_mm_for_euclid_dist", ErrorKind::InvalidArgument,
                 "[cdist] compute_mode '{}' is not one of use_mm_for_euclid_dist_if_necessary, "
                 "use_mm_for_euclid_dist, donot_use_mm_for_euclid_dist",
                 mode);
  return false;
}

Tensor euclidean_by_matrix_product(const Tensor& x1, const Tensor& x2, const Tensor& exact) {
  const Attrs last_kept{{"dim", std::vector<std::int64_t>{-1}}, {"keepdim", true}};
  const Tensor norms1 = call_one("sum", {call_one("mul", {x1, x1})}, last_kept);                         // [..., P, 1]
  const Tensor norms2 = call_one("sum", {call_one("mul", {x2, x2})}, last_kept);                         // [..., R, 1]
  const Tensor inner = call_one("einsum", {x1, x2}, {{"equation", std::string("...pm,...rm->...pr")}});  // [..., P, R]
  const Tensor squares =
      call_one("sub", {call_one("add", {norms1, call_one("transpose", {norms2},
                                                         {{"dim0", std::int64_t{-1}}, {"dim1", std::int64_t{-2}}})}),
                       call_one("mul", {inner, ops::lit(2.0)})});
  const Tensor value = call_one("sqrt", {call_one("clamp", {squares, ops::lit(0.0), Tensor()})});
  return call_one("add", {ops::detach(value), call_one("sub", {exact, ops::detach(exact)})});
}

void register_pairwise_distances(OpRegistry& registry) {
  {
    OpDef& op = registry.add(
        "cdist(Tensor x1, Tensor x2, float p=2., str compute_mode='use_mm_for_euclid_dist_if_necessary') -> Tensor",
        OpKind::Composite, "distance",
        "p-norm distances between the rows of x1 [*, P, M] and of x2 [*, R, M] -> [*, P, R], batch dims broadcast");
    op.decompose = [](const TensorList& in, const Attrs& attrs) -> TensorList {
      const Tensor &x1 = in[0], &x2 = in[1];
      FUNCSPEC_CHECK(x1.dim() >= 2 && x2.dim() >= 2, ErrorKind::ShapeMismatch,
                     "[cdist] x1 and x2 must have at least 2 dims but have shapes {} and {}",
                     shape_to_string(x1.shape()), shape_to_string(x2.shape()));
      check_dtype("cdist", "x1", x1.dtype(), DTypeSet::Floating);
      FUNCSPEC_CHECK(x1.dtype() == x2.dtype(), ErrorKind::DtypeNotSupported,
                     "[cdist] expected x1 and x2 to have the same dtype but got {} and {}", dtype_name(x1.dtype()),
                     dtype_name(x2.dtype()));
      FUNCSPEC_CHECK(x1.size(-1) == x2.size(-1), ErrorKind::ShapeMismatch,
                     "[cdist] x1 and x2 must have the same number of columns but have {} and {}", x1.size(-1),
                     x2.size(-1));
      const double p = distance_order("cdist", attrs);
      const bool by_product = uses_matrix_product(attrs.get_string("compute_mode"), p, x1.size(-2), x2.size(-2));
      // [*, P, 1, M] - [*, 1, R, M]: the batch dims broadcast with the rest.
      const Tensor differences = call_one("sub", {call_one("unsqueeze", {x1}, {{"dim", std::int64_t{-2}}}),
                                                  call_one("unsqueeze", {x2}, {{"dim", std::int64_t{-3}}})});
      const Tensor exact = pairwise_norm("cdist", differences, p);
      if (!by_product || x1.size(-1) == 0) return {exact};
      return {euclidean_by_matrix_product(x1, x2, exact)};
    };
  }
  {
    OpDef& op = registry.add("pdist(Tensor input, float p=2.) -> Tensor", OpKind::Composite, "distance",
                             "p-norm distances between the rows i < j of input [N, M], in row-major order of (i, j)");
    op.decompose = [](const TensorList& in, const Attrs& attrs) -> TensorList {
      const Tensor& input = in[0];
      FUNCSPEC_CHECK(input.dim() == 2, ErrorKind::ShapeMismatch, "[pdist] input must be 2-D but has shape {}",
                     shape_to_string(input.shape()));
      check_dtype("pdist", "input", input.dtype(), DTypeSet::Floating);
      const double p = distance_order("pdist", attrs);
      // Row i against the rows after it, for each i in turn: the pairs (i, j), i < j, in row-major
      // order, built from views and cat (no index tensor to place on input's device).
      const std::int64_t n = input.size(0), features = input.size(1);
      TensorList blocks;
      for (std::int64_t i = 0; i + 1 < n; ++i) {
        const Tensor later =
            call_one("narrow", {input}, {{"dim", std::int64_t{0}}, {"start", i + 1}, {"length", n - i - 1}});
        const Tensor row = call_one("select", {input}, {{"dim", std::int64_t{0}}, {"index", i}});
        blocks.push_back(call_one("sub", {row, later}));
      }
      const Tensor differences = blocks.empty() ? call_one("full", {},
                                                           {{"size", Shape{0, features}},
                                                            {"fill_value", Scalar(0.0)},
                                                            {"dtype", input.dtype()},
                                                            {"device", std::string(device_name(input.device()))}})
                                                : call_one("cat", blocks, {{"dim", std::int64_t{0}}});
      return {pairwise_norm("pdist", differences, p)};
    };
  }
}

// NOTE: [cosine_similarity eps]
// PyTorch 2 divides each input by max(||x||, eps) and sums the products of the quotients. The clamp
// runs under no_grad on a copy of the norm, so autograd differentiates the divisor as the norm itself:
// below eps the value divides by eps, the derivative treats the divisor as ||x|| (at a zero vector
// the gradient is the other input's direction over eps, e.g. 6e7 for [0, 0] against [3, 4] with
// eps 1e-8). The divisor here is where(norm < eps, norm - detach(norm) + eps, norm): eps in value
// below the clamp, with the norm's derivative.
Tensor clamped_divisor(const Tensor& norm, const Scalar& eps) {
  const Tensor below = call_one("lt", {norm, ops::lit(eps)});
  const Tensor at_eps = call_one("add", {call_one("sub", {norm, ops::detach(norm)}), ops::lit(eps)});
  return call_one("where", {below, at_eps, norm});
}

void register_similarities(OpRegistry& registry) {
  {
    OpDef& op = registry.add("cosine_similarity(Tensor x1, Tensor x2, int dim=1, float eps=1e-08) -> Tensor",
                             OpKind::Composite, "distance",
                             "sum over dim of (x1 / max(||x1||, eps)) * (x2 / max(||x2||, eps)), broadcast; the clamp "
                             "is not differentiated");
    op.decompose = [](const TensorList& in, const Attrs& attrs) -> TensorList {
      const DType dtype = result_type(in);
      FUNCSPEC_CHECK(is_floating(dtype), ErrorKind::DtypeNotSupported,
                     "[cosine_similarity] the common dtype {} of x1 and x2 is not floating", dtype_name(dtype));
      const Shape shape = broadcast_shapes(std::vector<Shape>{in[0].shape(), in[1].shape()}, "cosine_similarity");
      const std::int64_t dim =
          wrap_dim(attrs.get_int("dim"), static_cast<std::int64_t>(shape.size()), "cosine_similarity");
      const Scalar eps(attrs.get_float("eps"));
      auto normalized = [&](const Tensor& x) {
        const Tensor expanded = call_one("expand", {cast_to(x, dtype)}, {{"size", shape}});
        const Tensor norm = vector_norm_of("cosine_similarity", expanded, 2, {dim}, true);
        return call_one("div", {expanded, clamped_divisor(norm, eps)});
      };
      return {call_one("sum", {call_one("mul", {normalized(in[0]), normalized(in[1])})},
                       {{"dim", std::vector<std::int64_t>{dim}}, {"keepdim", false}})};
    };
  }
  {
    OpDef& op = registry.add(
        "pairwise_distance(Tensor x1, Tensor x2, float p=2., float eps=1e-06, bool keepdim=False) -> Tensor",
        OpKind::Composite, "distance",
        "vector_norm(x1 - x2 + eps, p) over the last dim of the broadcast (eps added to every difference)");
    op.decompose = [](const TensorList& in, const Attrs& attrs) -> TensorList {
      const Tensor shifted = call_one("add", {call_one("sub", {in[0], in[1]}), ops::lit(attrs.get_float("eps"))});
      check_dtype("pairwise_distance", "x1 - x2 + eps", shifted.dtype(), DTypeSet::Floating);
      const double p = attrs.get_float("p");
      const std::int64_t last = std::max(in[0].dim(), in[1].dim()) - 1;
      const std::vector<std::int64_t> dims = last < 0 ? std::vector<std::int64_t>{} : std::vector<std::int64_t>{last};
      return {vector_norm_of("pairwise_distance", shifted, p, dims, attrs.get_bool("keepdim"))};
    };
  }
}

}  // namespace

void register_distance_ops(OpRegistry& registry) {
  register_vector_norm(registry);
  register_dist(registry);
  register_renorm(registry);
  register_cross(registry);
  register_diag(registry);
  register_multi_dot(registry);
  register_cov(registry);
  register_pairwise_distances(registry);
  register_similarities(registry);
}

}  // namespace funcspec
