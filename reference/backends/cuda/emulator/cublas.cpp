// The CUDA host emulator's cuBLAS: the entry points cublas_library.h resolves, computed on the cpu
// from cuBLAS's documented contract, so the backend's calls are checked against that contract
// rather than against the backend's own idea of it. Column-major: element (i, j) of an r×c operand
// with leading dimension ld is at [i + j·ld], op(X) is X or its transpose, C = alpha·op(A)·op(B) +
// beta·C per batch element, and C is not read when beta is zero. The sums are a GPU's, not the
// cpu's: they start from the first product, not from +0 (signed zeros come out as an H100's), and
// accumulate with fused multiply-adds, so a caller that relies on the cpu's zeros or bits fails
// here as it would on a GPU.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

#include "reference/backends/cuda/emulator/cublas_v2.h"
#include "reference/backends/cuda/emulator/emulator_state.h"

struct cublasContext {
  cublasPointerMode_t pointer_mode = CUBLAS_POINTER_MODE_HOST;
};

namespace funcspec::cuda::emulator {
namespace {

// The bytes an r×c column-major operand with leading dimension ld spans (0 when it is empty).
std::size_t operand_bytes(std::int64_t rows, std::int64_t cols, std::int64_t ld) {
  if (rows == 0 || cols == 0) return 0;
  return static_cast<std::size_t>((cols - 1) * ld + rows) * sizeof(double);
}

bool batch_in_device_memory(const double* base, long long stride, std::int64_t batch, std::int64_t rows,
                            std::int64_t cols, std::int64_t ld) {
  const std::size_t bytes = operand_bytes(rows, cols, ld);
  if (bytes == 0) return true;
  for (std::int64_t b = 0; b < batch; ++b) {
    if (!is_device_range(base + b * stride, bytes)) return false;
  }
  return true;
}

cublasStatus_t invalid(const std::string& why) {
  record_error(cudaErrorInvalidValue, "cublasDgemmStridedBatched_64: " + why);
  return CUBLAS_STATUS_INVALID_VALUE;
}

}  // namespace
}  // namespace funcspec::cuda::emulator

cublasStatus_t cublasCreate_v2(cublasHandle_t* handle) {
  *handle = new cublasContext;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasDestroy_v2(cublasHandle_t handle) {
  delete handle;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasSetPointerMode_v2(cublasHandle_t handle, cublasPointerMode_t mode) {
  if (handle == nullptr) return CUBLAS_STATUS_NOT_INITIALIZED;
  handle->pointer_mode = mode;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasSetMathMode(cublasHandle_t handle, cublasMath_t) {
  return handle == nullptr ? CUBLAS_STATUS_NOT_INITIALIZED : CUBLAS_STATUS_SUCCESS;
}

const char* cublasGetStatusString(cublasStatus_t status) {
  switch (status) {
    case CUBLAS_STATUS_SUCCESS: return "CUBLAS_STATUS_SUCCESS";
    case CUBLAS_STATUS_NOT_INITIALIZED: return "CUBLAS_STATUS_NOT_INITIALIZED";
    case CUBLAS_STATUS_INVALID_VALUE: return "CUBLAS_STATUS_INVALID_VALUE (the cuda emulator's last error says why)";
    case CUBLAS_STATUS_EXECUTION_FAILED: return "CUBLAS_STATUS_EXECUTION_FAILED";
  }
  return "CUBLAS_STATUS_UNKNOWN";
}

cublasStatus_t cublasDgemmStridedBatched_64(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb,
                                            std::int64_t m, std::int64_t n, std::int64_t k, const double* alpha,
                                            const double* a, std::int64_t lda, long long stride_a, const double* b,
                                            std::int64_t ldb, long long stride_b, const double* beta, double* c,
                                            std::int64_t ldc, long long stride_c, std::int64_t batch_count) {
  using namespace funcspec::cuda::emulator;
  if (handle == nullptr) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (handle->pointer_mode != CUBLAS_POINTER_MODE_HOST) return invalid("alpha and beta are read from the host only");
  if (m < 0 || n < 0 || k < 0 || batch_count < 0) {
    return invalid(fmt::format("negative size (m={}, n={}, k={}, batchCount={})", m, n, k, batch_count));
  }
  // Stored shapes: A is m×k (or k×m when transposed), B is k×n (or n×k).
  const std::int64_t a_rows = transa == CUBLAS_OP_N ? m : k;
  const std::int64_t a_cols = transa == CUBLAS_OP_N ? k : m;
  const std::int64_t b_rows = transb == CUBLAS_OP_N ? k : n;
  const std::int64_t b_cols = transb == CUBLAS_OP_N ? n : k;
  if (lda < std::max<std::int64_t>(1, a_rows)) return invalid(fmt::format("lda={} < max(1, {})", lda, a_rows));
  if (ldb < std::max<std::int64_t>(1, b_rows)) return invalid(fmt::format("ldb={} < max(1, {})", ldb, b_rows));
  if (ldc < std::max<std::int64_t>(1, m)) return invalid(fmt::format("ldc={} < max(1, m={})", ldc, m));
  if (m == 0 || n == 0 || batch_count == 0) return CUBLAS_STATUS_SUCCESS;
  const bool reads_products = k > 0 && *alpha != 0.0;
  if (reads_products && (!batch_in_device_memory(a, stride_a, batch_count, a_rows, a_cols, lda) ||
                         !batch_in_device_memory(b, stride_b, batch_count, b_rows, b_cols, ldb))) {
    return invalid("A or B reaches outside device memory");
  }
  if (!batch_in_device_memory(c, stride_c, batch_count, m, n, ldc)) return invalid("C reaches outside device memory");
  for (std::int64_t batch = 0; batch < batch_count; ++batch) {
    const double* a_batch = a + batch * stride_a;
    const double* b_batch = b + batch * stride_b;
    double* c_batch = c + batch * stride_c;
    for (std::int64_t j = 0; j < n; ++j) {
      for (std::int64_t i = 0; i < m; ++i) {
        const auto a_ip = [&](std::int64_t p) {
          return transa == CUBLAS_OP_N ? a_batch[i + p * lda] : a_batch[p + i * lda];
        };
        const auto b_pj = [&](std::int64_t p) {
          return transb == CUBLAS_OP_N ? b_batch[p + j * ldb] : b_batch[j + p * ldb];
        };
        // No products (k = 0 or alpha = 0): C = beta·C, so zero here, as the reference BLAS sets it.
        double sum = 0.0;
        if (reads_products) {
          // As a GPU's DGEMM sums: not from +0 but from the first product as is, so that a single
          // product (-x)·0 (an outer product) or products that are all -0 give -0, where a sum
          // started at +0 would give +0 and hide a caller that needs +0; then each further product
          // by a fused multiply-add (one rounding, where the cpu rounds the product and the sum).
          sum = a_ip(0) * b_pj(0);
          for (std::int64_t p = 1; p < k; ++p) sum = std::fma(a_ip(p), b_pj(p), sum);
        }
        double& c_ij = c_batch[i + j * ldc];
        c_ij = *beta == 0.0 ? *alpha * sum : *alpha * sum + *beta * c_ij;
      }
    }
  }
  return CUBLAS_STATUS_SUCCESS;
}
