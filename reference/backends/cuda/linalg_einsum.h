#pragma once
// einsum on cuda: the equation's plan (reference/backends/common/einsum_plan.h), executed as one cuBLAS
// strided-batched DGEMM where the contraction is a product of two floating operands (float32 ones
// widened to float64, as the cpu carries them), and by a generic kernel otherwise.
#include <optional>
#include <vector>

#include "reference/backends/common/einsum_plan.h"
#include "reference/core/tensor.h"

namespace funcspec::cuda {

// NOTE: [einsum through cuBLAS]
// Two float32 or float64 operands X and Y whose summed dims are not empty make one GEMM. Iteration
// dims of size 1 are dropped (they index nothing); every other dim is classified by the effective
// strides the cpu kernel computes (the sum of an operand's strides over its dims with that label,
// size-1 dims skipped), a zero stride meaning "not read along this dim":
//   batch  output dims that both operands read, or neither;
//   m      output dims only X reads;       n  output dims only Y reads;
//   k      every summed dim (one that only one operand reads is summed like the others: the other
//          operand's stride there is 0, so its values repeat).
// Each group keeps the plan's order, so C[batch][m][n] = sum over k of X[batch][m][k] * Y[batch][k][n],
// one row-major matrix product per batch element. cuBLAS is column-major: C's transpose (n×m) is
// op(P)·op(Q) with op(P) = Yᵀ (n×k) and op(Q) = Xᵀ (k×m), i.e. gemm(m=n, n=m, k=k, P=Y, Q=X).
//
// float64: an operand is read where it lies when each of its groups collapses to one stride
// (consecutive dims nest: stride(d) = stride(d+1) * size(d+1)) and its matrices are row- or
// column-contiguous with a valid leading dimension; else it is first copied (gathered) into a
// contiguous scratch [batch..., rows..., cols...]. C is written straight into the output when the
// output's layout allows the same; else into a contiguous scratch, then scattered. When the
// output's dims come in the order (batch, Y's, X's), X and Y swap roles (a product of two factors
// does not depend on their order), so that the output is written directly.
//
// Signed zeros: the cpu's sum starts at +0, so its result is never -0 (+0 + -0 = +0, and an exact
// cancellation rounds to +0). cuBLAS's sum does not start at +0: with beta = 0 it stores its first
// product as is (an H100 returns (-x)·0 = -0 for k = 1), so its result is -0 where every product
// is -0: an outer product or a rank-0 factor meeting a zero, k such terms, products that underflow
// to -0. Any other zero sum is +0 on both sides (round to nearest). Every entry of C is therefore
// stored with +0 added (launch_einsum_store: in place after a GEMM that wrote the output, else by
// the scatter), which turns -0 into +0 and changes nothing else, NaN included.
//
// float32 (the plan is `widened`): the cpu multiplies and sums float32 in float64 and rounds once
// (cpu::einsum), and so does cuda. Both operands are always gathered, widened to float64 (exact),
// cublasDgemmStridedBatched_64 computes C in a float64 scratch, and the scatter rounds each entry
// to float32 (after adding +0). A product of two float32 values is exact in float64, so the two
// devices differ only in the order of the float64 additions: each float64 sum is within
// (k - 1)·2^-53·Σ|x||y| of the exact one, and after the one rounding the results are almost always
// the same bits, else neighbouring float32 values (a wider gap only when the sum cancels to below
// about k·2^-29·Σ|x||y|). A sum that is exact in float64 in any order (e.g. of values on a 2^-12
// grid) gives the cpu's bits. SGEMM is never used: it sums in float32, off by up to about
// k·2^-24·Σ|x||y|. The copies cost O(inputs + output) next to the O(m·n·k) product, and an
// H100/H200's float64 tensor-core peak equals its float32 peak.
//
// Copies (gathers and scatters) merge neighbouring dims that both sides walk as one
// (stride(d) = stride(d+1) * size(d+1) in each), so that a contiguous operand is one flat copy.
struct EinsumGemmOperand {
  // Gathered first, when `gathered`, over `gather_sizes` (batch dims, then the matrix's row dims,
  // then its column dims, neighbours merged) from the operand's `gather_strides`, into a
  // contiguous scratch of the computation's type (float64 for a widened plan).
  bool gathered = false;
  std::vector<std::int64_t> gather_sizes;
  std::vector<std::int64_t> gather_strides;
  // As cuBLAS reads it (from the scratch when gathered): the operand op(Z) is the row-major
  // matrix's transpose, with Z stored column-major with leading dimension `ld` and transposed by
  // cuBLAS (CUBLAS_OP_T) when `transposed`; consecutive batch elements lie `batch_stride` apart.
  bool transposed = false;
  std::int64_t ld = 1;
  std::int64_t batch_stride = 0;
};

struct EinsumGemmPlan {
  // float32 operands computed in float64: both gathered, C in a float64 scratch, rounded by the
  // scatter (never direct_output).
  bool widened = false;
  std::size_t left = 0;   // X: the operand whose matrices are m×k
  std::size_t right = 1;  // Y: the operand whose matrices are k×n
  std::int64_t batch = 1;
  std::int64_t m = 1;
  std::int64_t n = 1;
  std::int64_t k = 1;
  EinsumGemmOperand x;
  EinsumGemmOperand y;
  // Where C goes: the output itself (C[batch][i][j] at batch * c_batch_stride + i * ldc + j), or a
  // contiguous scratch (ldc = n, c_batch_stride = m * n) copied to the output over `scatter_sizes`
  // (the output's dims of size other than 1, neighbours merged) with the scratch's and the
  // output's strides; for a widened plan that copy rounds to float32.
  bool direct_output = false;
  std::int64_t ldc = 1;
  std::int64_t c_batch_stride = 0;
  std::vector<std::int64_t> scatter_sizes;
  std::vector<std::int64_t> scatter_from_strides;
  std::vector<std::int64_t> scatter_to_strides;
};

// The GEMM that computes `plan` over operands of these shapes and strides and of `dtype` (Float32:
// a widened plan; Float64) into an output with `out_strides`; nothing when the contraction is not
// one (not two operands, or a summed dim of size 0). Exposed for the tests, which replay it on the
// host.
std::optional<EinsumGemmPlan> plan_einsum_gemm(const common::EinsumPlan& plan, const std::vector<Shape>& shapes,
                                               const std::vector<Strides>& strides, const Strides& out_strides,
                                               DType dtype);

// out = einsum over `operands` following `plan`, as cpu::einsum. int64 and contractions of one or
// of three or more operands run the generic kernel, which repeats the cpu's loop exactly (the same
// bits); two float32/float64 operands run cuBLAS's DGEMM (NOTE: [einsum through cuBLAS]), which
// sums in float64 like the cpu but in its own order (float32 results: the cpu's bits, or rarely a
// neighbouring float32 value), a zero sum being +0 as on the cpu.
void einsum(const common::EinsumPlan& plan, const TensorList& operands, const Tensor& out);

}  // namespace funcspec::cuda
