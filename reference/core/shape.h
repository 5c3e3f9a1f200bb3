#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace funcspec {

using Shape = std::vector<std::int64_t>;
using Strides = std::vector<std::int64_t>;

// A dim or position already known to be non-negative, as an index into a Shape, Strides or vector.
inline std::size_t as_index(std::int64_t i) { return static_cast<std::size_t>(i); }

std::int64_t numel_of(std::span<const std::int64_t> shape);
Strides contiguous_strides(std::span<const std::int64_t> shape);
std::string shape_to_string(std::span<const std::int64_t> shape);

// Wraps a possibly negative dim into [0, rank). `op` names the caller in the error message. A
// scalar (rank 0) accepts dims -1 and 0, as PyTorch does.
std::int64_t wrap_dim(std::int64_t dim, std::int64_t rank, std::string_view op);

// Wraps a list of dims, rejecting duplicates.
std::vector<std::int64_t> wrap_dims(std::span<const std::int64_t> dims, std::int64_t rank, std::string_view op);

// NumPy/PyTorch broadcasting: align trailing dims; each pair must be equal or contain a 1.
Shape broadcast_shapes(std::span<const Shape> shapes, std::string_view op);

// Strides for viewing a tensor of `old_shape`/`old_strides` as `new_shape` without copying, or
// nothing when the sizes cannot be expressed over the existing strides (PyTorch's rule: each run
// of new dims must map onto a run of old dims that are contiguous with one another).
std::optional<Strides> view_strides(std::span<const std::int64_t> old_shape, std::span<const std::int64_t> old_strides,
                                    std::span<const std::int64_t> new_shape);

// Resolves a single -1 in a requested shape against a number of elements.
Shape infer_size(std::span<const std::int64_t> requested, std::int64_t numel, std::string_view op);

}  // namespace funcspec
