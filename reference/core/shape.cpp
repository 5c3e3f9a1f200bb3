#include "reference/core/shape.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "reference/core/error.h"

namespace funcspec {

std::int64_t numel_of(std::span<const std::int64_t> shape) {
  std::int64_t n = 1;
  for (std::int64_t s : shape) n *= s;
  return n;
}

Strides contiguous_strides(std::span<const std::int64_t> shape) {
  Strides strides(shape.size());
  std::int64_t stride = 1;
  for (std::size_t i = shape.size(); i-- > 0;) {
    strides[i] = stride;
    stride *= std::max<std::int64_t>(shape[i], 1);
  }
  return strides;
}

std::string shape_to_string(std::span<const std::int64_t> shape) { return fmt::format("[{}]", fmt::join(shape, ", ")); }

std::int64_t wrap_dim(std::int64_t dim, std::int64_t rank, std::string_view op) {
  const std::int64_t effective_rank = std::max<std::int64_t>(rank, 1);
  FUNCSPEC_CHECK(dim >= -effective_rank && dim < effective_rank, ErrorKind::DimOutOfRange,
                 "[{}] dim {} is out of range for a tensor of rank {} (expected a dim in [{}, {}])", op, dim, rank,
                 -effective_rank, effective_rank - 1);
  return dim < 0 ? dim + effective_rank : dim;
}

std::vector<std::int64_t> wrap_dims(std::span<const std::int64_t> dims, std::int64_t rank, std::string_view op) {
  std::vector<std::int64_t> wrapped;
  wrapped.reserve(dims.size());
  for (std::int64_t d : dims) {
    const std::int64_t w = wrap_dim(d, rank, op);
    FUNCSPEC_CHECK(std::find(wrapped.begin(), wrapped.end(), w) == wrapped.end(), ErrorKind::InvalidArgument,
                   "[{}] dim {} appears more than once in {}", op, w, shape_to_string(dims));
    wrapped.push_back(w);
  }
  return wrapped;
}

Shape broadcast_shapes(std::span<const Shape> shapes, std::string_view op) {
  std::size_t rank = 0;
  for (const Shape& s : shapes) rank = std::max(rank, s.size());
  Shape result(rank, 1);
  for (const Shape& s : shapes) {
    const std::size_t lead = rank - s.size();
    for (std::size_t i = 0; i < s.size(); ++i) {
      std::int64_t& r = result[lead + i];
      if (s[i] == r || s[i] == 1) continue;
      if (r == 1) {
        r = s[i];
        continue;
      }
      std::vector<std::string> names;
      for (const Shape& t : shapes) names.push_back(shape_to_string(t));
      fail(ErrorKind::ShapeMismatch, "[{}] shapes {} are not broadcastable (size {} against {} at dim {})", op,
           fmt::join(names, " and "), s[i], r, lead + i);
    }
  }
  return result;
}

std::optional<Strides> view_strides(std::span<const std::int64_t> old_shape, std::span<const std::int64_t> old_strides,
                                    std::span<const std::int64_t> new_shape) {
  const std::int64_t numel = numel_of(old_shape);
  // With no elements, or a single one seen through a rank-0 tensor, every geometry is a valid view.
  if (numel == 0 || old_shape.empty()) return contiguous_strides(new_shape);
  Strides new_strides(new_shape.size());
  // Walk old dims from the back, grouping them into chunks that are contiguous with each other;
  // each chunk must be exactly covered by a run of new dims.
  std::int64_t view_d = static_cast<std::int64_t>(new_shape.size()) - 1;
  std::int64_t chunk_base_stride = old_strides.empty() ? 1 : old_strides.back();
  std::int64_t tensor_numel = 1;
  std::int64_t view_numel = 1;
  for (std::int64_t tensor_d = static_cast<std::int64_t>(old_shape.size()) - 1; tensor_d >= 0; --tensor_d) {
    tensor_numel *= old_shape[tensor_d];
    const bool chunk_ends = tensor_d == 0 || (old_shape[tensor_d - 1] != 1 &&
                                              old_strides[tensor_d - 1] != tensor_numel * chunk_base_stride);
    if (chunk_ends) {
      while (view_d >= 0 && (view_numel < tensor_numel || new_shape[view_d] == 1)) {
        new_strides[view_d] = view_numel * chunk_base_stride;
        view_numel *= new_shape[view_d];
        --view_d;
      }
      if (view_numel != tensor_numel) return std::nullopt;
      if (tensor_d > 0) {
        chunk_base_stride = old_strides[tensor_d - 1];
        tensor_numel = 1;
        view_numel = 1;
      }
    }
  }
  if (view_d != -1) return std::nullopt;
  return new_strides;
}

Shape infer_size(std::span<const std::int64_t> requested, std::int64_t numel, std::string_view op) {
  Shape shape(requested.begin(), requested.end());
  std::int64_t known = 1;
  std::optional<std::size_t> infer_at;
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == -1) {
      FUNCSPEC_CHECK(!infer_at, ErrorKind::InvalidArgument, "[{}] only one dimension can be -1 in {}", op,
                     shape_to_string(requested));
      infer_at = i;
    } else {
      FUNCSPEC_CHECK(shape[i] >= 0, ErrorKind::InvalidArgument, "[{}] invalid size {} in {}", op, shape[i],
                     shape_to_string(requested));
      known *= shape[i];
    }
  }
  if (infer_at) {
    FUNCSPEC_CHECK(known != 0 && numel % known == 0, ErrorKind::ShapeMismatch,
                   "[{}] shape {} is invalid for an input of {} elements", op, shape_to_string(requested), numel);
    shape[*infer_at] = numel / known;
  } else {
    FUNCSPEC_CHECK(known == numel, ErrorKind::ShapeMismatch, "[{}] shape {} is invalid for an input of {} elements", op,
                   shape_to_string(requested), numel);
  }
  return shape;
}

}  // namespace funcspec
