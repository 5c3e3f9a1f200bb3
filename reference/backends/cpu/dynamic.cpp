#include "reference/backends/cpu/dynamic.h"

#include <vector>

#include "reference/core/strided_loop.h"

namespace funcspec::cpu {

Scalar single_element(const Tensor& self) {
  return visit_dtype(self.dtype(), [&]<typename T>() -> Scalar {
    const T& value = *self.data<T>();
    if constexpr (std::is_same_v<T, bool> || std::is_same_v<T, std::int64_t>)
      return Scalar(value);
    else
      return Scalar(cast_scalar<double>(value));
  });
}

Tensor nonzero_indices(const Tensor& self) {
  const std::size_t rank = self.shape().size();
  std::vector<std::int64_t> coordinates;
  visit_dtype(self.dtype(), [&]<typename T>() {
    const T* base = self.data<T>();
    // for_each_offset walks in row-major order; the odometer below tracks the matching index.
    std::vector<std::int64_t> index(rank, 0);
    for_each_offset<1>(self.shape(), {self.strides()}, [&](const std::array<std::int64_t, 1>& at) {
      if (base[at[0]] != T(0)) coordinates.insert(coordinates.end(), index.begin(), index.end());
      for (std::size_t d = rank; d-- > 0;) {
        if (++index[d] < self.shape()[d]) break;
        index[d] = 0;
      }
    });
  });
  std::int64_t count = 0;
  if (rank == 0) {
    count = visit_dtype(self.dtype(), [&]<typename T>() -> std::int64_t { return *self.data<T>() != T(0) ? 1 : 0; });
  } else {
    count = static_cast<std::int64_t>(coordinates.size() / rank);
  }
  Tensor out = Tensor::empty({count, static_cast<std::int64_t>(rank)}, DType::Int64);
  std::copy(coordinates.begin(), coordinates.end(), out.data<std::int64_t>());
  return out;
}

Tensor select_masked(const Tensor& self, const Tensor& mask) {
  return visit_dtype(self.dtype(), [&]<typename T>() {
    const T* values = self.data<T>();
    const bool* keep = mask.data<bool>();
    std::vector<T> selected;
    for_each_offset<2>(self.shape(), {self.strides(), mask.strides()}, [&](const std::array<std::int64_t, 2>& at) {
      if (keep[at[1]]) selected.push_back(values[at[0]]);
    });
    Tensor out = Tensor::empty({static_cast<std::int64_t>(selected.size())}, self.dtype());
    std::copy(selected.begin(), selected.end(), out.data<T>());
    return out;
  });
}

}  // namespace funcspec::cpu
