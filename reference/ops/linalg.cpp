// Linear algebra: einsum (the one contraction primitive), the matrix products written in terms of
// it, triangular masks, and the LU-based determinant, inverse and solve.
#include <fmt/format.h>

#include "reference/api/conversion.h"
#include "reference/backends/common/einsum_plan.h"
#include "reference/backends/cpu/linalg.h"
#include "reference/backends/cpu/linalg_einsum.h"
#include "reference/backends/cuda/linalg.h"
#include "reference/backends/cuda/linalg_einsum.h"
#include "reference/ops/dispatch.h"
#include "reference/ops/linalg_checks.h"
#include "reference/ops/op_layer.h"
#include "reference/ops/registration.h"
#include "reference/ops/registry.h"

namespace funcspec {

void check_square_floating(std::string_view op, std::string_view arg, const Tensor& a) {
  check_dtype(op, arg, a.dtype(), DTypeSet::Floating);
  FUNCSPEC_CHECK(a.dim() >= 2, ErrorKind::ShapeMismatch,
                 "[{}] expected '{}' to be a matrix or a batch of matrices but got shape {}", op, arg,
                 shape_to_string(a.shape()));
  FUNCSPEC_CHECK(a.size(-1) == a.size(-2), ErrorKind::ShapeMismatch,
                 "[{}] expected '{}' to be a batch of square matrices but got shape {}", op, arg,
                 shape_to_string(a.shape()));
}

namespace {

std::vector<Shape> shapes_of(const TensorList& tensors) {
  std::vector<Shape> shapes;
  for (const Tensor& t : tensors) shapes.push_back(t.shape());
  return shapes;
}

Shape leading(const Shape& shape, std::size_t trailing) {
  return Shape(shape.begin(), shape.end() - static_cast<std::ptrdiff_t>(trailing));
}

Tensor einsum(const std::string& equation, const TensorList& operands) {
  return call_one("einsum", operands, {{"equation", equation}});
}

// The matrix products take operands of one dtype, as PyTorch's do (no promotion), and no bool.
void check_product_dtypes(std::string_view op, const Tensor& self, std::string_view other_name, const Tensor& other) {
  check_dtype(op, "self", self.dtype(), DTypeSet::NoBool);
  check_dtype(op, other_name, other.dtype(), DTypeSet::NoBool);
  FUNCSPEC_CHECK(self.dtype() == other.dtype(), ErrorKind::DtypeNotSupported,
                 "[{}] expected self and {} to have the same dtype but got {} and {}", op, other_name,
                 dtype_name(self.dtype()), dtype_name(other.dtype()));
}

void check_contracted(std::string_view op, const Tensor& self, std::int64_t self_size, std::string_view other_name,
                      const Tensor& other, std::int64_t other_size) {
  FUNCSPEC_CHECK(self_size == other_size, ErrorKind::ShapeMismatch,
                 "[{}] self of shape {} and {} of shape {} cannot be multiplied: the contracted sizes {} and {} differ",
                 op, shape_to_string(self.shape()), other_name, shape_to_string(other.shape()), self_size, other_size);
}

// NOTE: [beta = 0 ignores self]
// The scaled products (addmm, addmv, addr, baddbmm, addbmm) are beta·self + alpha·product. As in
// PyTorch (and BLAS), beta = 0 means that self is not read at all: NaN and inf in self do not
// propagate (0·NaN would be NaN). The decomposition then leaves self out entirely, so its values
// reach neither the result nor any derivative (self's gradient is zero). self must still broadcast
// to the product's shape and have its dtype: the checks read only shapes and dtypes.
void check_addend(std::string_view op, const Tensor& self, const Shape& product_shape) {
  const Shape broadcast = broadcast_shapes(std::vector<Shape>{self.shape(), product_shape}, op);
  FUNCSPEC_CHECK(broadcast == product_shape, ErrorKind::ShapeMismatch,
                 "[{}] self of shape {} does not broadcast to the product's shape {}", op,
                 shape_to_string(self.shape()), shape_to_string(product_shape));
}

// PyTorch's rule for beta and alpha: no float scalar for an integer result, no bool scalar (bool
// tensors are rejected by the products already).
void check_scale(std::string_view op, std::string_view name, const Scalar& scale, DType result) {
  FUNCSPEC_CHECK(!scale.is_bool(), ErrorKind::InvalidArgument, "[{}] {} {} is a bool but the result is {}", op, name,
                 scale.to_string(), dtype_name(result));
  FUNCSPEC_CHECK(!scale.is_floating() || is_floating(result), ErrorKind::InvalidArgument,
                 "[{}] {} {} is a float but the result is {}", op, name, scale.to_string(), dtype_name(result));
}

void check_scales(std::string_view op, const Attrs& attrs, DType result) {
  check_scale(op, "beta", attrs.get_scalar("beta"), result);
  check_scale(op, "alpha", attrs.get_scalar("alpha"), result);
}

// beta·self + alpha·product, self already checked against the product's shape and dtype.
Tensor scaled_sum(const Tensor& self, const Tensor& product, const Attrs& attrs) {
  const Scalar beta = attrs.get_scalar("beta");
  const Scalar alpha = attrs.get_scalar("alpha");
  if (beta.to<double>() == 0.0) {  // NOTE: [beta = 0 ignores self]
    if (alpha == Scalar(std::int64_t{1})) return product;
    return call_one("mul", {product, ops::lit(alpha)});
  }
  const Tensor scaled_self = beta == Scalar(std::int64_t{1}) ? self : call_one("mul", {self, ops::lit(beta)});
  return call_one("add", {scaled_self, product}, {{"alpha", alpha}});
}

// The checks the scaled products share: self's dtype is the operands' (no promotion, as PyTorch).
void check_scaled_product(std::string_view op, const Tensor& self, const Tensor& operand, const Shape& product_shape,
                          const Attrs& attrs) {
  check_dtype(op, "self", self.dtype(), DTypeSet::NoBool);
  FUNCSPEC_CHECK(self.dtype() == operand.dtype(), ErrorKind::DtypeNotSupported,
                 "[{}] expected self to have the operands' dtype {} but got {}", op, dtype_name(operand.dtype()),
                 dtype_name(self.dtype()));
  check_addend(op, self, product_shape);
  check_scales(op, attrs, self.dtype());
}

void check_matrix_rank(std::string_view op, const Tensor& self) {
  FUNCSPEC_CHECK(self.dim() >= 2, ErrorKind::ShapeMismatch,
                 "[{}] expected a tensor with at least 2 dims but got shape {}", op, shape_to_string(self.shape()));
}

// torch.linalg.solve's shapes: B is a (batch of) vector(s) when it is 1-D or when its shape is
// exactly A's shape without the last dim; otherwise a (batch of) matrices. Batch dims broadcast.
struct SolveShapes {
  Shape a_shape;  // [*batch, n, n]
  Shape b_shape;  // [*batch, n, k], [*batch, k, n] (left=False) or [*batch, n]
};

SolveShapes solve_shapes(const Tensor& a, const Tensor& b, bool left) {
  check_square_floating("solve", "A", a);
  check_dtype("solve", "B", b.dtype(), DTypeSet::Floating);
  FUNCSPEC_CHECK(a.dtype() == b.dtype(), ErrorKind::DtypeNotSupported,
                 "[solve] expected A and B to have the same dtype but got {} and {}", dtype_name(a.dtype()),
                 dtype_name(b.dtype()));
  FUNCSPEC_CHECK(b.dim() >= 1, ErrorKind::ShapeMismatch, "[solve] B must have at least 1 dim but has shape {}",
                 shape_to_string(b.shape()));
  const std::int64_t n = a.size(-1);
  SolveShapes s;
  const bool vector_rhs = b.dim() == 1 || (b.dim() == a.dim() - 1 && b.shape() == leading(a.shape(), 1));
  Shape b_batch;
  Shape rhs;
  if (vector_rhs) {
    FUNCSPEC_CHECK(b.size(-1) == n, ErrorKind::ShapeMismatch,
                   "[solve] A of shape {} needs a right-hand side vector of size {} but B has shape {}",
                   shape_to_string(a.shape()), n, shape_to_string(b.shape()));
    b_batch = leading(b.shape(), 1);
    rhs = {n};
  } else {
    FUNCSPEC_CHECK(b.dim() >= 2 && b.size(left ? -2 : -1) == n, ErrorKind::ShapeMismatch,
                   "[solve] A of shape {} and B of shape {} are incompatible: B's {} dim must have size {}",
                   shape_to_string(a.shape()), shape_to_string(b.shape()), left ? "second-to-last" : "last", n);
    b_batch = leading(b.shape(), 2);
    rhs = {b.size(-2), b.size(-1)};
  }
  const Shape batch = broadcast_shapes(std::vector<Shape>{leading(a.shape(), 2), b_batch}, "solve");
  s.a_shape = batch;
  s.a_shape.insert(s.a_shape.end(), {n, n});
  s.b_shape = batch;
  s.b_shape.insert(s.b_shape.end(), rhs.begin(), rhs.end());
  return s;
}

// The kernels of each op, for either backend (cpu:: or cuda::, which share signatures): the
// attributes are read once, here.
template <auto kernel>
KernelFn einsum_kernel() {
  return [](const KernelArgs& a) {
    kernel(common::plan_einsum(a.attrs.get_string("equation"), shapes_of(a.inputs)), a.inputs, a.outputs[0]);
  };
}

template <auto kernel>
KernelFn tril_triu_kernel(bool lower) {
  return [lower](const KernelArgs& a) { kernel(a.inputs[0], a.outputs[0], a.attrs.get_int("diagonal"), lower); };
}

template <auto kernel>
KernelFn det_kernel() {
  return [](const KernelArgs& a) { kernel(a.inputs[0], a.outputs[0]); };
}

template <auto kernel>
KernelFn slogdet_kernel() {
  return [](const KernelArgs& a) { kernel(a.inputs[0], a.outputs[0], a.outputs[1]); };
}

template <auto kernel>
KernelFn inverse_kernel() {
  return [](const KernelArgs& a) { kernel(a.inputs[0], a.outputs[0], "inverse"); };
}

template <auto kernel>
KernelFn solve_kernel() {
  return [](const KernelArgs& a) {
    // Canonical inputs share their batch dims, so a vector right-hand side is one dim short of A.
    const bool vector_rhs = a.inputs[1].dim() == a.inputs[0].dim() - 1;
    kernel(a.inputs[0], a.inputs[1], a.outputs[0], a.attrs.get_bool("left"), vector_rhs, "solve");
  };
}

void register_einsum(OpRegistry& registry) {
  OpDef& op = registry.add("einsum(Tensor[] operands, *, str equation) -> Tensor", OpKind::Primitive, "linalg",
                           "sum over the labels absent from the output of the product of the labelled operands");
  op.canonicalize = [](const TensorList& in, const Attrs&) -> TensorList {
    if (in.empty()) return in;  // infer reports the operand count against the equation
    const DType dtype = result_type(in);
    TensorList out;
    for (const Tensor& t : in) out.push_back(cast_to(t, dtype));
    return out;
  };
  op.infer = [](const TensorList& in, const Attrs& attrs) -> std::vector<TensorMeta> {
    const common::EinsumPlan plan = common::plan_einsum(attrs.get_string("equation"), shapes_of(in));
    check_dtype("einsum", "operands", in[0].dtype(), DTypeSet::NoBool);
    return {{plan.output_shape(), in[0].dtype()}};
  };
  op.cpu_kernel = einsum_kernel<&cpu::einsum>();
  op.cuda_kernel = FUNCSPEC_CUDA_KERNEL(einsum_kernel<&cuda::einsum>());
}

void register_products(OpRegistry& registry) {
  {
    OpDef& op = registry.add("mm(Tensor self, Tensor mat2) -> Tensor", OpKind::Composite, "linalg",
                             "matrix product of [n, m] and [m, p]");
    op.decompose = [](const TensorList& in, const Attrs&) -> TensorList {
      check_rank("mm", "self", in[0], {2});
      check_rank("mm", "mat2", in[1], {2});
      check_product_dtypes("mm", in[0], "mat2", in[1]);
      check_contracted("mm", in[0], in[0].size(1), "mat2", in[1], in[1].size(0));
      return {einsum("ij,jk->ik", in)};
    };
    op.derive_out = true;
  }
  {
    OpDef& op = registry.add("bmm(Tensor self, Tensor mat2) -> Tensor", OpKind::Composite, "linalg",
                             "batched matrix product of [b, n, m] and [b, m, p] (equal batch sizes, no broadcasting)");
    op.decompose = [](const TensorList& in, const Attrs&) -> TensorList {
      check_rank("bmm", "self", in[0], {3});
      check_rank("bmm", "mat2", in[1], {3});
      check_product_dtypes("bmm", in[0], "mat2", in[1]);
      FUNCSPEC_CHECK(in[0].size(0) == in[1].size(0), ErrorKind::ShapeMismatch,
                     "[bmm] self of shape {} and mat2 of shape {} have different batch sizes",
                     shape_to_string(in[0].shape()), shape_to_string(in[1].shape()));
      check_contracted("bmm", in[0], in[0].size(2), "mat2", in[1], in[1].size(1));
      return {einsum("bij,bjk->bik", in)};
    };
  }
  {
    OpDef& op = registry.add("mv(Tensor self, Tensor vec) -> Tensor", OpKind::Composite, "linalg",
                             "matrix-vector product of [n, m] and [m]");
    op.decompose = [](const TensorList& in, const Attrs&) -> TensorList {
      check_rank("mv", "self", in[0], {2});
      check_rank("mv", "vec", in[1], {1});
      check_product_dtypes("mv", in[0], "vec", in[1]);
      check_contracted("mv", in[0], in[0].size(1), "vec", in[1], in[1].size(0));
      return {einsum("ij,j->i", in)};
    };
  }
  {
    OpDef& op = registry.add("dot(Tensor self, Tensor tensor) -> Tensor", OpKind::Composite, "linalg",
                             "inner product of two 1-D tensors of one length and one dtype");
    op.decompose = [](const TensorList& in, const Attrs&) -> TensorList {
      check_rank("dot", "self", in[0], {1});
      check_rank("dot", "tensor", in[1], {1});
      check_product_dtypes("dot", in[0], "tensor", in[1]);
      check_contracted("dot", in[0], in[0].size(0), "tensor", in[1], in[1].size(0));
      return {einsum("i,i->", in)};
    };
  }
  {
    OpDef& op = registry.add("outer(Tensor self, Tensor vec2) -> Tensor", OpKind::Composite, "linalg",
                             "outer product [n] x [m] -> [n, m] (dtypes promote)");
    op.decompose = [](const TensorList& in, const Attrs&) -> TensorList {
      check_rank("outer", "self", in[0], {1});
      check_rank("outer", "vec2", in[1], {1});
      check_dtype("outer", "self", in[0].dtype(), DTypeSet::NoBool);
      check_dtype("outer", "vec2", in[1].dtype(), DTypeSet::NoBool);
      return {einsum("i,j->ij", in)};
    };
  }
  {
    OpDef& op = registry.add("matmul(Tensor self, Tensor other) -> Tensor", OpKind::Composite, "linalg",
                             "matrix product with PyTorch's rank rules: 1-D operands gain then lose a dim, batch dims "
                             "broadcast");
    op.decompose = [](const TensorList& in, const Attrs&) -> TensorList {
      const Tensor& self = in[0];
      const Tensor& other = in[1];
      FUNCSPEC_CHECK(self.dim() >= 1 && other.dim() >= 1, ErrorKind::ShapeMismatch,
                     "[matmul] both arguments need at least 1 dim but got shapes {} and {}",
                     shape_to_string(self.shape()), shape_to_string(other.shape()));
      check_product_dtypes("matmul", self, "other", other);
      // A 1-D self is a row vector (contracting its only dim), a 1-D other a column vector.
      const std::int64_t self_contracted = self.size(-1);
      const std::int64_t other_contracted = other.dim() == 1 ? other.size(0) : other.size(-2);
      check_contracted("matmul", self, self_contracted, "other", other, other_contracted);
      if (self.dim() == 1 && other.dim() == 1) return {einsum("i,i->", in)};
      if (other.dim() == 1) return {einsum("...ij,j->...i", in)};
      if (self.dim() == 1) return {einsum("j,...jk->...k", in)};
      // Checked here so that the error names matmul rather than einsum's ellipsis dims.
      broadcast_shapes(std::vector<Shape>{leading(self.shape(), 2), leading(other.shape(), 2)}, "matmul");
      return {einsum("...ij,...jk->...ik", in)};
    };
    op.derive_out = true;
  }
  {
    OpDef& op = registry.add("trace(Tensor self) -> Tensor", OpKind::Composite, "linalg",
                             "sum of the main diagonal of a 2-D tensor (of its leading square part when not square)");
    op.decompose = [](const TensorList& in, const Attrs&) -> TensorList {
      check_rank("trace", "self", in[0], {2});
      check_dtype("trace", "self", in[0].dtype(), DTypeSet::NoBool);
      if (in[0].size(0) == in[0].size(1)) return {einsum("ii->", in)};
      return {einsum("i->", {call_one("diagonal", in)})};
    };
  }
}

constexpr const char* kScales = "*, Scalar beta=1, Scalar alpha=1";

void register_scaled_products(OpRegistry& registry) {
  {
    OpDef& op = registry.add(fmt::format("addmm(Tensor self, Tensor mat1, Tensor mat2, {}) -> Tensor", kScales),
                             OpKind::Composite, "linalg",
                             "beta * self + alpha * (mat1 @ mat2), self broadcast to [n, p]; beta = 0 ignores self");
    op.decompose = [](const TensorList& in, const Attrs& attrs) -> TensorList {
      const Tensor &self = in[0], &mat1 = in[1], &mat2 = in[2];
      check_rank("addmm", "mat1", mat1, {2});
      check_rank("addmm", "mat2", mat2, {2});
      check_product_dtypes("addmm", mat1, "mat2", mat2);
      check_contracted("addmm", mat1, mat1.size(1), "mat2", mat2, mat2.size(0));
      check_scaled_product("addmm", self, mat1, {mat1.size(0), mat2.size(1)}, attrs);
      return {scaled_sum(self, einsum("ij,jk->ik", {mat1, mat2}), attrs)};
    };
  }
  {
    OpDef& op = registry.add(fmt::format("addmv(Tensor self, Tensor mat, Tensor vec, {}) -> Tensor", kScales),
                             OpKind::Composite, "linalg",
                             "beta * self + alpha * (mat @ vec), self broadcast to [n]; beta = 0 ignores self");
    op.decompose = [](const TensorList& in, const Attrs& attrs) -> TensorList {
      const Tensor &self = in[0], &mat = in[1], &vec = in[2];
      check_rank("addmv", "mat", mat, {2});
      check_rank("addmv", "vec", vec, {1});
      check_product_dtypes("addmv", mat, "vec", vec);
      check_contracted("addmv", mat, mat.size(1), "vec", vec, vec.size(0));
      check_scaled_product("addmv", self, mat, {mat.size(0)}, attrs);
      return {scaled_sum(self, einsum("ij,j->i", {mat, vec}), attrs)};
    };
  }
  {
    OpDef& op = registry.add(fmt::format("addr(Tensor self, Tensor vec1, Tensor vec2, {}) -> Tensor", kScales),
                             OpKind::Composite, "linalg",
                             "beta * self + alpha * outer(vec1, vec2), dtypes promote; beta = 0 ignores self");
    op.decompose = [](const TensorList& in, const Attrs& attrs) -> TensorList {
      check_rank("addr", "vec1", in[1], {1});
      check_rank("addr", "vec2", in[2], {1});
      check_dtype("addr", "self", in[0].dtype(), DTypeSet::NoBool);
      check_dtype("addr", "vec1", in[1].dtype(), DTypeSet::NoBool);
      check_dtype("addr", "vec2", in[2].dtype(), DTypeSet::NoBool);
      // addr promotes its three operands, as PyTorch's (an elementwise computation, like outer).
      const DType dtype = result_type(in);
      const Tensor self = cast_to(in[0], dtype), vec1 = cast_to(in[1], dtype), vec2 = cast_to(in[2], dtype);
      check_scaled_product("addr", self, vec1, {vec1.size(0), vec2.size(0)}, attrs);
      return {scaled_sum(self, einsum("i,j->ij", {vec1, vec2}), attrs)};
    };
  }
  for (const bool summed : {false, true}) {
    const std::string name = summed ? "addbmm" : "baddbmm";
    OpDef& op = registry.add(
        fmt::format("{}(Tensor self, Tensor batch1, Tensor batch2, {}) -> Tensor", name, kScales), OpKind::Composite,
        "linalg",
        summed ? "beta * self + alpha * (sum over b of batch1[b] @ batch2[b]), self broadcast to [n, p]"
               : "beta * self + alpha * (batch1 @ batch2), self broadcast to [b, n, p]; beta = 0 ignores self");
    op.decompose = [name, summed](const TensorList& in, const Attrs& attrs) -> TensorList {
      const Tensor &self = in[0], &batch1 = in[1], &batch2 = in[2];
      check_rank(name, "batch1", batch1, {3});
      check_rank(name, "batch2", batch2, {3});
      check_product_dtypes(name, batch1, "batch2", batch2);
      FUNCSPEC_CHECK(batch1.size(0) == batch2.size(0), ErrorKind::ShapeMismatch,
                     "[{}] batch1 of shape {} and batch2 of shape {} have different batch sizes", name,
                     shape_to_string(batch1.shape()), shape_to_string(batch2.shape()));
      check_contracted(name, batch1, batch1.size(2), "batch2", batch2, batch2.size(1));
      const Shape product_shape =
          summed ? Shape{batch1.size(1), batch2.size(2)} : Shape{batch1.size(0), batch1.size(1), batch2.size(2)};
      check_scaled_product(name, self, batch1, product_shape, attrs);
      return {scaled_sum(self, einsum(summed ? "bij,bjk->ik" : "bij,bjk->bik", {batch1, batch2}), attrs)};
    };
  }
}

void register_tensor_products(OpRegistry& registry) {
  {
    OpDef& op = registry.add("kron(Tensor self, Tensor other) -> Tensor", OpKind::Composite, "linalg",
                             "Kronecker product: ranks padded with leading 1s, result size self_i * other_i per dim");
    op.decompose = [](const TensorList& in, const Attrs&) -> TensorList {
      const Tensor &self = in[0], &other = in[1];
      const std::int64_t rank = std::max(self.dim(), other.dim());
      // Dim i of the result is (self_i, other_i) flattened: interleave the two operands' dims,
      // multiply (broadcasting against the interleaved 1s), flatten each pair.
      Shape self_interleaved, other_interleaved, result;
      for (std::int64_t i = 0; i < rank; ++i) {
        const std::int64_t a = i < rank - self.dim() ? 1 : self.size(i - (rank - self.dim()));
        const std::int64_t b = i < rank - other.dim() ? 1 : other.size(i - (rank - other.dim()));
        self_interleaved.insert(self_interleaved.end(), {a, 1});
        other_interleaved.insert(other_interleaved.end(), {1, b});
        result.push_back(a * b);
      }
      const Tensor product = call_one("mul", {call_one("reshape", {self}, {{"shape", self_interleaved}}),
                                              call_one("reshape", {other}, {{"shape", other_interleaved}})});
      return {call_one("reshape", {product}, {{"shape", result}})};
    };
  }
  {
    OpDef& op = registry.add("tensordot(Tensor self, Tensor other, int[] dims_self, int[] dims_other) -> Tensor",
                             OpKind::Composite, "linalg",
                             "contracts dims_self[i] of self with dims_other[i] of other; the result has self's "
                             "other dims, then other's");
    op.decompose = [](const TensorList& in, const Attrs& attrs) -> TensorList {
      const Tensor &self = in[0], &other = in[1];
      check_product_dtypes("tensordot", self, "other", other);
      // wrap_dims lets a rank-0 tensor name dim 0 or -1; a contracted dim must exist (PyTorch).
      for (const auto& [t, name] : {std::pair{&self, "dims_self"}, std::pair{&other, "dims_other"}}) {
        FUNCSPEC_CHECK(t->dim() > 0 || attrs.get_int_list(name).empty(), ErrorKind::DimOutOfRange,
                       "[tensordot] {} names dims of a tensor without dims", name);
      }
      const std::vector<std::int64_t> dims_self = wrap_dims(attrs.get_int_list("dims_self"), self.dim(), "tensordot");
      const std::vector<std::int64_t> dims_other =
          wrap_dims(attrs.get_int_list("dims_other"), other.dim(), "tensordot");
      FUNCSPEC_CHECK(dims_self.size() == dims_other.size(), ErrorKind::InvalidArgument,
                     "[tensordot] dims_self {} and dims_other {} must have the same length", shape_to_string(dims_self),
                     shape_to_string(dims_other));
      // One einsum letter per dim of self, the same letter for the dim of other contracted with it,
      // and fresh letters for other's remaining dims. Contracted sizes must agree or be 1 (a size-1
      // dim is summed on its own, as PyTorch does): einsum's label broadcasting says exactly that.
      const std::string letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
      FUNCSPEC_CHECK(static_cast<std::size_t>(self.dim() + other.dim()) <= letters.size(), ErrorKind::InvalidArgument,
                     "[tensordot] operands of {} and {} dims exceed the {} dims one contraction can name", self.dim(),
                     other.dim(), letters.size());
      std::string self_term, other_term(static_cast<std::size_t>(other.dim()), ' '), output;
      for (std::int64_t d = 0; d < self.dim(); ++d) self_term += letters[as_index(d)];
      std::vector<bool> contracted_self(as_index(self.dim()), false);
      for (std::size_t i = 0; i < dims_self.size(); ++i) {
        const std::int64_t s = self.size(dims_self[i]), o = other.size(dims_other[i]);
        FUNCSPEC_CHECK(s == o || s == 1 || o == 1, ErrorKind::ShapeMismatch,
                       "[tensordot] contracted dims must match, but self has size {} in dim {} and other has size {} "
                       "in dim {}",
                       s, dims_self[i], o, dims_other[i]);
        other_term[as_index(dims_other[i])] = letters[as_index(dims_self[i])];
        contracted_self[as_index(dims_self[i])] = true;
      }
      for (std::int64_t d = 0; d < self.dim(); ++d) {
        if (!contracted_self[as_index(d)]) output += letters[as_index(d)];
      }
      std::size_t next = as_index(self.dim());
      for (char& c : other_term) {
        if (c == ' ') {
          c = letters[next++];
          output += c;
        }
      }
      return {einsum(self_term + "," + other_term + "->" + output, {self, other})};
    };
  }
  {
    OpDef& op = registry.add("vecdot(Tensor x, Tensor y, *, int dim=-1) -> Tensor", OpKind::Composite, "linalg",
                             "sum(x * y, dim) over the broadcast shape (linalg.vecdot); x and y of one floating dtype");
    op.decompose = [](const TensorList& in, const Attrs& attrs) -> TensorList {
      const Tensor &x = in[0], &y = in[1];
      check_dtype("vecdot", "x", x.dtype(), DTypeSet::Floating);
      FUNCSPEC_CHECK(x.dtype() == y.dtype(), ErrorKind::DtypeNotSupported,
                     "[vecdot] expected x and y to have the same dtype but got {} and {}", dtype_name(x.dtype()),
                     dtype_name(y.dtype()));
      const Shape shape = broadcast_shapes(std::vector<Shape>{x.shape(), y.shape()}, "vecdot");
      const std::int64_t dim = wrap_dim(attrs.get_int("dim"), static_cast<std::int64_t>(shape.size()), "vecdot");
      return {
          call_one("sum", {call_one("mul", {x, y})}, {{"dim", std::vector<std::int64_t>{dim}}, {"keepdim", false}})};
    };
  }
  {
    OpDef& op =
        registry.add("diag_embed(Tensor self, int offset=0, int dim1=-2, int dim2=-1) -> Tensor", OpKind::Composite,
                     "linalg", "zeros with self's last dim placed on the offset diagonal of the (dim1, dim2) planes");
    op.decompose = [](const TensorList& in, const Attrs& attrs) -> TensorList {
      const Tensor& self = in[0];
      const std::int64_t rank = self.dim() + 1;
      const std::int64_t dim1 = wrap_dim(attrs.get_int("dim1"), rank, "diag_embed");
      const std::int64_t dim2 = wrap_dim(attrs.get_int("dim2"), rank, "diag_embed");
      FUNCSPEC_CHECK(dim1 != dim2, ErrorKind::InvalidArgument,
                     "[diag_embed] dim1 and dim2 must differ but both are {} for a result of {} dims", dim1, rank);
      const std::int64_t offset = attrs.get_int("offset");
      const std::int64_t n = self.size(-1) + (offset < 0 ? -offset : offset);
      // self's leading dims, in order, fill the result's dims other than dim1 and dim2.
      Shape shape;
      std::int64_t next = 0;
      for (std::int64_t d = 0; d < rank; ++d) shape.push_back(d == dim1 || d == dim2 ? n : self.size(next++));
      const Tensor zeros = call_one("full", {},
                                    {{"size", shape},
                                     {"fill_value", Scalar(std::int64_t{0})},
                                     {"dtype", self.dtype()},
                                     {"device", std::string(device_name(self.device()))}});
      return {call_one("diagonal_scatter", {zeros, self}, {{"offset", offset}, {"dim1", dim1}, {"dim2", dim2}})};
    };
  }
}

void register_triangular(OpRegistry& registry) {
  for (const bool lower : {true, false}) {
    const std::string name = lower ? "tril" : "triu";
    OpDef& op =
        registry.add(fmt::format("{}(Tensor self, int diagonal=0) -> Tensor", name), OpKind::Primitive, "linalg",
                     lower ? "zeroes the entries above the given diagonal of the last two dims (keeps j - i <= "
                             "diagonal)"
                           : "zeroes the entries below the given diagonal of the last two dims (keeps j - i >= "
                             "diagonal)");
    op.infer = [name](const TensorList& in, const Attrs&) -> std::vector<TensorMeta> {
      check_matrix_rank(name, in[0]);
      return {{in[0].shape(), in[0].dtype()}};
    };
    op.cpu_kernel = tril_triu_kernel<&cpu::tril_triu>(lower);
    op.cuda_kernel = FUNCSPEC_CUDA_KERNEL(tril_triu_kernel<&cuda::tril_triu>(lower));
    op.derive_inplace = true;
    op.derive_out = true;
  }
}

void register_lu_ops(OpRegistry& registry) {
  {
    OpDef& op = registry.add("det(Tensor self) -> Tensor", OpKind::Primitive, "linalg",
                             "determinant of each [n, n] matrix, via LU with partial pivoting (singular: 0)");
    op.infer = [](const TensorList& in, const Attrs&) -> std::vector<TensorMeta> {
      check_square_floating("det", "self", in[0]);
      return {{leading(in[0].shape(), 2), in[0].dtype()}};
    };
    op.cpu_kernel = det_kernel<&cpu::det>();
    op.cuda_kernel = FUNCSPEC_CUDA_KERNEL(det_kernel<&cuda::det>());
  }
  {
    OpDef& op = registry.add("slogdet(Tensor self) -> (Tensor sign, Tensor logabsdet)", OpKind::Primitive, "linalg",
                             "sign and log |det| of each [n, n] matrix (singular: 0 and -inf)");
    op.infer = [](const TensorList& in, const Attrs&) -> std::vector<TensorMeta> {
      check_square_floating("slogdet", "self", in[0]);
      const Shape batch = leading(in[0].shape(), 2);
      return {{batch, in[0].dtype()}, {batch, in[0].dtype()}};
    };
    op.cpu_kernel = slogdet_kernel<&cpu::slogdet>();
    op.cuda_kernel = FUNCSPEC_CUDA_KERNEL(slogdet_kernel<&cuda::slogdet>());
  }
  {
    OpDef& op = registry.add("inverse(Tensor self) -> Tensor", OpKind::Primitive, "linalg",
                             "inverse of each [n, n] matrix (singular: singular_matrix error)");
    op.infer = [](const TensorList& in, const Attrs&) -> std::vector<TensorMeta> {
      check_square_floating("inverse", "self", in[0]);
      return {{in[0].shape(), in[0].dtype()}};
    };
    op.cpu_kernel = inverse_kernel<&cpu::inverse>();
    op.cuda_kernel = FUNCSPEC_CUDA_KERNEL(inverse_kernel<&cuda::inverse>());
  }
  {
    OpDef& op = registry.add("solve(Tensor A, Tensor B, *, bool left=True) -> Tensor", OpKind::Primitive, "linalg",
                             "X with A X = B (left) or X A = B, batched with broadcasting, as torch.linalg.solve");
    op.canonicalize = [](const TensorList& in, const Attrs& attrs) -> TensorList {
      const SolveShapes s = solve_shapes(in[0], in[1], attrs.get_bool("left"));
      return {expand_to(in[0], s.a_shape), expand_to(in[1], s.b_shape)};
    };
    op.infer = [](const TensorList& in, const Attrs& attrs) -> std::vector<TensorMeta> {
      const SolveShapes s = solve_shapes(in[0], in[1], attrs.get_bool("left"));
      return {{s.b_shape, in[1].dtype()}};
    };
    op.cpu_kernel = solve_kernel<&cpu::solve>();
    op.cuda_kernel = FUNCSPEC_CUDA_KERNEL(solve_kernel<&cuda::solve>());
  }
}

}  // namespace

void register_linalg_ops(OpRegistry& registry) {
  register_einsum(registry);
  register_products(registry);
  register_scaled_products(registry);
  register_tensor_products(registry);
  register_triangular(registry);
  register_lu_ops(registry);
  register_linalg_spectral_ops(registry);
  register_linalg_svd_ops(registry);
  register_linalg_lu_ops(registry);
  register_linalg_triangular_ops(registry);
  register_linalg_inverse_ops(registry);
  register_linalg_qr_ops(registry);
  register_linalg_pinv_ops(registry);
}

}  // namespace funcspec
