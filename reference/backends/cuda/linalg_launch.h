#pragma once
// The launchers of the linalg family's CUDA kernels (linalg.cu, linalg_einsum.cu), called by the
// host glue (linalg.cpp, linalg_einsum.cpp). Plain C++17: pointers, geometries, strided views.
// Each launcher is a template defined in its .cu file and instantiated there for the element types
// the glue uses; the launches go to the default stream and are checked with check_launch.
#include <cstdint>

#include "reference/backends/cuda/strided_view.h"

namespace funcspec::cuda {

// ---------------------------------------------------------------------------------------------
// einsum (linalg_einsum.cu)

// dst[i] = Out(src[i]) for every row-major position i of `geometry`, each through its own strides:
// the gathers into the layouts cuBLAS reads (float32 widened to float64, exactly). In -> Out:
// float -> double and double -> double.
template <typename In, typename Out>
void launch_einsum_copy(const Geometry& geometry, StridedView<const In> src, StridedView<Out> dst);

// dst[i] = Out(src[i] + 0.0) (float32: rounded to nearest even): cuBLAS's float64 sums stored as
// the cpu's, whose sum starts at +0 (so a zero sum is +0, never cuBLAS's -0) and is rounded once.
// The scatter out of a scratch C, or in place (src and dst the same elements) after a GEMM that
// wrote the output itself. Out: float and double.
template <typename Out>
void launch_einsum_store(const Geometry& geometry, StridedView<const double> src, StridedView<Out> dst);

// One operand of the generic einsum kernel: its factor for output position o (row-major over the
// output geometry) and summed position s (row-major over the summed geometry) is
//   data[offset_of(o, output, output_strides) + offset_of(s, summed, summed_strides)].
template <typename T>
struct EinsumOperand {
  const T* data = nullptr;
  std::int64_t output_strides[kMaxDims] = {};
  std::int64_t summed_strides[kMaxDims] = {};
};

// out[o] = sum over s of the product of every operand's factor, one thread per output element,
// in the cpu kernel's order and accumulator (cpu::einsum: summed positions in row-major order,
// factors multiplied from the first operand to the last into an accumulator that starts at 1;
// float32 is carried in float64 and rounded once; int64 wraps around). `operands` points to
// `operand_count` descriptors in device memory. int64, float and double.
template <typename T>
void launch_einsum_generic(const Geometry& output, const Geometry& summed, const EinsumOperand<T>* operands,
                           int operand_count, StridedView<T> out);

// ---------------------------------------------------------------------------------------------
// Triangular masks and the LU family (linalg.cu)

// out = in where the entry (i, j) of the last two dims is kept (tril: j - i <= diagonal; triu:
// j - i >= diagonal), else zero; both views over `geometry` (rank >= 2). bool, int64, float, double.
template <typename T>
void launch_tril_triu(const Geometry& geometry, StridedView<const T> in, StridedView<T> out, std::int64_t diagonal,
                      bool lower);

// A batch of matrices: element (i, j) of the matrix at row-major batch position b is
//   data[offset_of(b, batch, batch_strides) + i * row_stride + j * col_stride].
template <typename T>
struct BatchedMatrices {
  T* data = nullptr;
  std::int64_t batch_strides[kMaxDims] = {};
  std::int64_t rows = 0;
  std::int64_t cols = 0;
  std::int64_t row_stride = 0;
  std::int64_t col_stride = 0;
};

// Device scratch of the LU kernels, one slice per batch element (one thread each).
template <typename T>
struct LuWorkspace {
  T* lu = nullptr;                     // batch * n * n: the matrix, then its factors (common::lu_factor_in_place)
  std::int64_t* row_of = nullptr;      // batch * n: the row permutation
  T* vectors = nullptr;                // batch * 2n: a right-hand side column and its solution
  std::int64_t* zero_pivot = nullptr;  // batch: the first zero pivot of each matrix, or -1
};

// Each matrix of `a` ([*, n, n], batch geometry `batch`) factored by common::lu_factor_in_place, then:
// det: out (a view over `batch`) = common::lu_determinant.
template <typename T>
void launch_det(const Geometry& batch, BatchedMatrices<const T> a, LuWorkspace<T> workspace, StridedView<T> out);
// slogdet: sign and logabsdet (views over `batch`) = common::lu_sign_and_log_abs_determinant.
template <typename T>
void launch_slogdet(const Geometry& batch, BatchedMatrices<const T> a, LuWorkspace<T> workspace, StridedView<T> sign,
                    StridedView<T> logabsdet);
// inverse: column j of out solves A·x = e_j (common::lu_solve). A matrix with a zero pivot records it in
// workspace.zero_pivot and writes nothing; the host raises singular_matrix for the first one.
template <typename T>
void launch_inverse(const Geometry& batch, BatchedMatrices<const T> a, LuWorkspace<T> workspace,
                    BatchedMatrices<T> out);
// solve: column c of x solves A·x = column c of b; `a`, `b` and `x` are already laid out for a
// left solve (cpu::solve transposes them for left=False). Zero pivots as for inverse.
template <typename T>
void launch_solve(const Geometry& batch, BatchedMatrices<const T> a, BatchedMatrices<const T> b,
                  LuWorkspace<T> workspace, BatchedMatrices<T> x);

}  // namespace funcspec::cuda
