#pragma once
// Substitution with a triangular matrix, written once for every floating type so that the oracle
// dtype runs the very algorithm whose float32/float64 results it judges. Host+device: the CUDA
// backend runs it one thread per matrix (reference/backends/cuda/linalg_triangular.cu, compiled
// without fused multiply-adds), so both backends perform the same operations in the same order.
#include <cstdint>

#include "reference/core/host_device.h"

namespace funcspec::common {

// NOTE: [triangular substitution]
// Solves T·x = b in place (x holds b on entry) for the n×n triangular matrix T whose element (i, j)
// is a[i * row_stride + j * col_stride]. Only T's triangle is read (the lower one, or the upper one
// when `upper`); with `unitriangular` its diagonal is not read either and counts as 1. Row by row
// in the order the triangle allows (forward for lower, backward for upper), each x_i starts from
// b_i, subtracts the products T_ij·x_j in increasing j, then divides by T_ii. A zero diagonal entry
// is not checked: the division gives inf or NaN, as the BLAS trsm that PyTorch calls does.
template <typename T>
FUNCSPEC_HOST_DEVICE void triangular_substitute(const T* a, std::int64_t row_stride, std::int64_t col_stride,
                                                std::int64_t n, bool upper, bool unitriangular, T* x,
                                                std::int64_t x_stride) {
  for (std::int64_t step = 0; step < n; ++step) {
    const std::int64_t i = upper ? n - 1 - step : step;
    const std::int64_t first = upper ? i + 1 : 0;
    const std::int64_t last = upper ? n : i;  // exclusive
    T value = x[i * x_stride];
    for (std::int64_t j = first; j < last; ++j) value -= a[i * row_stride + j * col_stride] * x[j * x_stride];
    x[i * x_stride] = unitriangular ? value : value / a[i * row_stride + i * col_stride];
  }
}

}  // namespace funcspec::common
