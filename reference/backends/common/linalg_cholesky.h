#pragma once
// The Cholesky factorization, written once for every floating type so that the oracle dtype runs the
// very algorithm whose float32/float64 results it judges. Host+device: the CUDA backend runs it one
// thread per matrix (reference/backends/cuda/linalg_triangular.cu, compiled without fused
// multiply-adds), so both backends perform the same operations in the same order.
#include <cstdint>

#include "reference/backends/common/scalar_math.h"
#include "reference/core/host_device.h"

namespace funcspec::common {

// NOTE: [Cholesky factorization]
// L·Lᵀ = A for the n×n matrix A whose element (i, j) is a[i * a_row + j * a_col], reading only A's
// lower triangle (diagonal included): the result is the factor of the symmetric matrix that triangle
// defines. L is written to l[i * l_row + j * l_col], zeros above its diagonal. An upper factor U
// (Uᵀ·U = A from A's upper triangle) is the same computation with both matrices' strides swapped:
// U = Lᵀ of the transposed layout.
// Column by column (left-looking, as LAPACK's unblocked potf2): the lower triangle is copied into L,
// then for each j the pivot d = L_jj - Σ_{k<j} L_jk² (k increasing) is checked, L_jj = sqrt(d), and
// each L_ij (i > j) = (L_ij - Σ_{k<j} L_ik·L_jk) / L_jj. A pivot that is not positive (zero,
// negative or NaN) means the leading minor of order j + 1 is not positive-definite: the pivot d
// itself is stored in L_jj, the columns after j keep A's entries, and j + 1 is returned (as potf2
// leaves its matrix, and as torch.linalg.cholesky_ex returns it). 0 means success.
template <typename T>
FUNCSPEC_HOST_DEVICE std::int64_t cholesky_factor(const T* a, std::int64_t a_row, std::int64_t a_col, std::int64_t n,
                                                  T* l, std::int64_t l_row, std::int64_t l_col) {
  for (std::int64_t i = 0; i < n; ++i) {
    for (std::int64_t j = 0; j < n; ++j) l[i * l_row + j * l_col] = j <= i ? a[i * a_row + j * a_col] : T(0);
  }
  for (std::int64_t j = 0; j < n; ++j) {
    T pivot = l[j * l_row + j * l_col];
    for (std::int64_t k = 0; k < j; ++k) pivot -= l[j * l_row + k * l_col] * l[j * l_row + k * l_col];
    if (!(pivot > T(0))) {
      l[j * l_row + j * l_col] = pivot;
      return j + 1;
    }
    const T root = math::sqrt(pivot);
    l[j * l_row + j * l_col] = root;
    for (std::int64_t i = j + 1; i < n; ++i) {
      T value = l[i * l_row + j * l_col];
      for (std::int64_t k = 0; k < j; ++k) value -= l[i * l_row + k * l_col] * l[j * l_row + k * l_col];
      l[i * l_row + j * l_col] = value / root;
    }
  }
  return 0;
}

}  // namespace funcspec::common
