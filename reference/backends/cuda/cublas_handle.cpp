#include "reference/backends/cuda/cublas_handle.h"

#include "reference/backends/cuda/cublas_library.h"
#include "reference/backends/cuda/cuda_status.h"

namespace funcspec::cuda {

cublasHandle_t cublas_handle() {
  // A function-local static is initialized once even when threads race here; an initializer that
  // throws leaves it uninitialized, so the next call tries again. The handle is deliberately never
  // destroyed: static destructors run after the CUDA runtime may already have torn down its
  // context, and cublasDestroy then fails or crashes; the driver reclaims everything at exit.
  static const cublasHandle_t handle = [] {
    cublasHandle_t created = nullptr;
    check_cublas_status(cublas_library().create(&created), "cublasCreate");
    check_cublas_status(cublas_library().set_pointer_mode(created, CUBLAS_POINTER_MODE_HOST), "cublasSetPointerMode");
    check_cublas_status(cublas_library().set_math_mode(created, CUBLAS_DEFAULT_MATH), "cublasSetMathMode");
    return created;
  }();
  return handle;
}

}  // namespace funcspec::cuda
