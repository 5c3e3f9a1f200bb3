#pragma once
// Where the matrices of a batched tensor lie: shared by the cpu kernels of the linalg family and
// the CUDA backend's host glue for it.
#include <cstdint>

#include "reference/core/tensor.h"

namespace funcspec::common {

// The layout of one matrix inside a batched tensor: element (i, j) of the matrix whose batch offset
// is `base` lives at base + i * row_stride + j * col_stride.
struct MatrixLayout {
  std::int64_t rows = 0;
  std::int64_t cols = 0;
  std::int64_t row_stride = 0;
  std::int64_t col_stride = 0;

  MatrixLayout transposed() const { return {cols, rows, col_stride, row_stride}; }
};

// The last two dims of `t` as a matrix.
inline MatrixLayout trailing_matrix(const Tensor& t) {
  const std::size_t r = t.shape().size();
  return {t.shape()[r - 2], t.shape()[r - 1], t.strides()[r - 2], t.strides()[r - 1]};
}

// The last dim of `t` as a column vector (an n×1 matrix).
inline MatrixLayout trailing_vector(const Tensor& t) {
  const std::size_t r = t.shape().size();
  return {t.shape()[r - 1], 1, t.strides()[r - 1], 0};
}

}  // namespace funcspec::common
