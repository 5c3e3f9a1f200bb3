#pragma once
// The type sums and products of T accumulate in, in the reductions, scans and einsum of both
// backends: float32 in double, rounded once at the end; bool and int64 in uint64, so that overflow
// wraps modulo 2^64 (two's complement, as PyTorch) instead of being undefined behaviour; float64
// and the oracle dtype in themselves. Plain C++17: the CUDA kernels (nvcc) use it too.
#include <cstdint>
#include <type_traits>

namespace funcspec::common {

template <typename T>
using accumulator_t =
    std::conditional_t<std::is_same_v<T, float>, double, std::conditional_t<std::is_integral_v<T>, std::uint64_t, T>>;

}  // namespace funcspec::common
