#pragma once
// cuBLAS, loaded on first use (dlopen) rather than linked. cuBLAS and cuBLASLt are over half a
// gigabyte of shared objects; linked, every process of the engine maps them at start (0.2 s each,
// most of the time of a short test executable, and thousands of them run per CI build) though only
// einsum on cuda ever calls them.
#include <cublas_v2.h>

namespace funcspec::cuda {

// The entry points the backend uses, resolved from libcublas.so.<CUBLAS_VER_MAJOR>.
struct CublasLibrary {
  decltype(&cublasCreate_v2) create;
  decltype(&cublasSetPointerMode_v2) set_pointer_mode;
  decltype(&cublasSetMathMode) set_math_mode;
  decltype(&cublasDgemmStridedBatched_64) dgemm_strided_batched;
  decltype(&cublasGetStatusString) status_string;
};

// Loads the library once (thread-safe); raises cuda_not_available naming the loader's message when
// it or one of the entry points is missing.
const CublasLibrary& cublas_library();

}  // namespace funcspec::cuda
