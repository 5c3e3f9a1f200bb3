#include "reference/backends/cuda/cublas_library.h"

#if FUNCSPEC_CUDA_EMULATED

namespace funcspec::cuda {

// The host emulator's cuBLAS (emulator/cublas.cpp) is linked in.
const CublasLibrary& cublas_library() {
  static const CublasLibrary library{&cublasCreate_v2, &cublasSetPointerMode_v2, &cublasSetMathMode,
                                     &cublasDgemmStridedBatched_64, &cublasGetStatusString};
  return library;
}

}  // namespace funcspec::cuda

#else

#include <dlfcn.h>

#include <string>

#include "reference/core/error.h"

namespace funcspec::cuda {
namespace {

template <typename Fn>
void resolve(void* library, const char* name, Fn& out) {
  void* symbol = dlsym(library, name);
  FUNCSPEC_CHECK(symbol != nullptr, ErrorKind::CudaNotAvailable, "[cuda] cuBLAS has no entry point {}: {}", name,
                 dlerror());
  out = reinterpret_cast<Fn>(symbol);
}

}  // namespace

const CublasLibrary& cublas_library() {
  // Never closed: the handle made from it lives to the end of the process (cublas_handle.cpp).
  static const CublasLibrary library = [] {
    const std::string file = "libcublas.so." + std::to_string(CUBLAS_VER_MAJOR);
    void* handle = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
    FUNCSPEC_CHECK(handle != nullptr, ErrorKind::CudaNotAvailable, "[cuda] cannot load {}: {}", file, dlerror());
    CublasLibrary loaded{};
    resolve(handle, "cublasCreate_v2", loaded.create);
    resolve(handle, "cublasSetPointerMode_v2", loaded.set_pointer_mode);
    resolve(handle, "cublasSetMathMode", loaded.set_math_mode);
    resolve(handle, "cublasDgemmStridedBatched_64", loaded.dgemm_strided_batched);
    resolve(handle, "cublasGetStatusString", loaded.status_string);
    return loaded;
  }();
  return library;
}

}  // namespace funcspec::cuda

#endif
