#pragma once
#include <array>
#include <cstdint>
#include <span>
#include <vector>

namespace funcspec {

// The one loop every cpu kernel (and the core, reading a strided tensor) is built on: visits each
// index of `shape` in row-major order and hands `fn` the offset of that index in each of N operands
// (index·strides[k], relative to the operand's data()). Operands of the same logical shape may have
// any strides, including 0 for broadcast dims and negative ones. Nothing is visited when the shape
// has a zero; a rank-0 shape is visited once.
template <std::size_t N, typename Fn>
void for_each_offset(std::span<const std::int64_t> shape, const std::array<std::span<const std::int64_t>, N>& strides,
                     Fn&& fn) {
  const std::size_t rank = shape.size();
  for (std::int64_t s : shape) {
    if (s == 0) return;
  }
  std::vector<std::int64_t> index(rank, 0);
  std::array<std::int64_t, N> offsets{};
  while (true) {
    fn(static_cast<const std::array<std::int64_t, N>&>(offsets));
    // Advance the odometer from the last dim, carrying into earlier ones.
    std::size_t d = rank;
    while (d > 0) {
      --d;
      if (++index[d] < shape[d]) {
        for (std::size_t k = 0; k < N; ++k) offsets[k] += strides[k][d];
        break;
      }
      for (std::size_t k = 0; k < N; ++k) offsets[k] -= strides[k][d] * (shape[d] - 1);
      index[d] = 0;
      if (d == 0) return;
    }
    if (rank == 0) return;
  }
}

}  // namespace funcspec
