#pragma once
// The CUDA host emulator's <cublas_v2.h> (see cuda_runtime.h beside it): the cuBLAS entry points the
// backend resolves (cublas_library.h), implemented on the cpu as cuBLAS documents them: column-major
// operands, leading dimensions checked, C not read when beta is zero.
#include <cstdint>

#include "reference/backends/cuda/emulator/cuda_runtime.h"

#define CUBLAS_VER_MAJOR 12

enum cublasStatus_t {
  CUBLAS_STATUS_SUCCESS = 0,
  CUBLAS_STATUS_NOT_INITIALIZED = 1,
  CUBLAS_STATUS_INVALID_VALUE = 7,
  CUBLAS_STATUS_EXECUTION_FAILED = 13,
};
enum cublasOperation_t { CUBLAS_OP_N = 0, CUBLAS_OP_T = 1 };
enum cublasPointerMode_t { CUBLAS_POINTER_MODE_HOST = 0, CUBLAS_POINTER_MODE_DEVICE = 1 };
enum cublasMath_t { CUBLAS_DEFAULT_MATH = 0 };

struct cublasContext;
using cublasHandle_t = cublasContext*;

cublasStatus_t cublasCreate_v2(cublasHandle_t* handle);
cublasStatus_t cublasDestroy_v2(cublasHandle_t handle);
cublasStatus_t cublasSetPointerMode_v2(cublasHandle_t handle, cublasPointerMode_t mode);
cublasStatus_t cublasSetMathMode(cublasHandle_t handle, cublasMath_t mode);
const char* cublasGetStatusString(cublasStatus_t status);
cublasStatus_t cublasDgemmStridedBatched_64(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb,
                                            std::int64_t m, std::int64_t n, std::int64_t k, const double* alpha,
                                            const double* a, std::int64_t lda, long long stride_a, const double* b,
                                            std::int64_t ldb, long long stride_b, const double* beta, double* c,
                                            std::int64_t ldc, long long stride_c, std::int64_t batch_count);
