#include "conformance/case/case_tensors.h"

#include <fmt/format.h>

#include <array>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <type_traits>
#include <vector>

#include "reference/core/strided_loop.h"

namespace funcspec::conformance {
namespace {

// What fills the gaps of a strided input's buffer: values no correct kernel ever reads, chosen to
// be loud when a backend ignores strides (NaN poisons arithmetic, INT64_MIN is rarely plausible).
template <typename T>
T gap_value() {
  if constexpr (std::is_same_v<T, bool>)
    return true;
  else if constexpr (std::is_same_v<T, std::int64_t>)
    return std::numeric_limits<std::int64_t>::min();
  else
    return T(std::numeric_limits<double>::quiet_NaN());
}

// Places `values` into a buffer at the view `geometry` describes; the rest of the buffer holds gap values.
Tensor lay_out(const Tensor& values, Tensor buffer, const Strides& view_strides, std::int64_t offset) {
  Tensor view = Tensor::view_of(buffer, values.shape(), view_strides, offset);
  visit_dtype(values.dtype(), [&]<typename T>() {
    if constexpr (!is_oracle_v<T>) {
      T* all = buffer.data<T>();
      for (std::int64_t i = 0; i < buffer.numel(); ++i) all[i] = gap_value<T>();
      T* target = view.data<T>();
      const T* source = values.data<T>();
      for_each_offset<2>(values.shape(), {view.strides(), values.strides()},
                         [&](const std::array<std::int64_t, 2>& at) { target[at[0]] = source[at[1]]; });
    }
  });
  return view;
}

}  // namespace

Tensor materialize_tensor(const TensorSpec& spec) {
  const TensorData& data = spec.data;
  if (spec.values_omitted) throw CaseError("", "", "a tensor given by dtype and shape alone exists only on meta");
  Tensor values = Tensor::empty(data.shape, data.dtype);
  if (!data.bytes.empty()) {
    visit_dtype(data.dtype, [&]<typename T>() {
      if constexpr (is_oracle_v<T>) {
        throw CaseError("", "", "the oracle dtype cannot appear in a case");
      } else {
        std::memcpy(values.data<T>(), data.bytes.data(), data.bytes.size());
      }
    });
  }
  if (spec.layout.is_contiguous()) return values;

  const std::size_t rank = data.shape.size();
  const TensorLayout& layout = spec.layout;
  if (layout.strides) {
    const std::optional<std::int64_t> extent = strided_extent(data.shape, *layout.strides, layout.offset);
    if (!extent) throw CaseError("", "", "the layout's buffer exceeds what a case may hold");
    return lay_out(values, Tensor::empty({*extent}, data.dtype),
                   Strides(layout.strides->begin(), layout.strides->end()), layout.offset);
  }
  std::vector<std::int64_t> start(rank, 0);
  std::vector<std::int64_t> step(rank, 1);
  std::vector<std::int64_t> permutation(rank);
  for (std::size_t d = 0; d < rank; ++d) {
    if (!layout.slice_start.empty()) {
      start[d] = layout.slice_start[d];
      step[d] = layout.slice_step[d];
    }
    permutation[d] = layout.permute.empty() ? static_cast<std::int64_t>(d) : layout.permute[d];
  }
  // The buffer is big enough for every dim's last element (and one element for an empty dim, so
  // that the view's offset stays inside it).
  Shape buffer_shape(rank);
  for (std::size_t d = 0; d < rank; ++d) {
    const std::int64_t extent = data.shape[d] == 0 ? start[d] + 1 : start[d] + (data.shape[d] - 1) * step[d] + 1;
    buffer_shape[static_cast<std::size_t>(permutation[d])] = extent;
  }
  Tensor buffer = Tensor::empty(buffer_shape, data.dtype);
  const Strides buffer_strides = contiguous_strides(buffer_shape);
  Strides view_strides(rank);
  std::int64_t offset = 0;
  for (std::size_t d = 0; d < rank; ++d) {
    const std::int64_t stride = buffer_strides[static_cast<std::size_t>(permutation[d])];
    view_strides[d] = stride * step[d];
    offset += start[d] * stride;
  }
  return lay_out(values, buffer, view_strides, offset);
}

Tensor materialize_meta_tensor(const TensorSpec& spec) {
  Strides strides = contiguous_strides(spec.data.shape);
  std::int64_t offset = 0;
  if (!spec.layout.is_contiguous()) {
    // The geometry the cpu input would have, so meta sees the same strides.
    TensorSpec probe = spec;
    probe.values_omitted = false;
    probe.data.bytes.assign(static_cast<std::size_t>(spec.data.numel()) * itemsize(spec.data.dtype), 0);
    const Tensor laid_out = materialize_tensor(probe);
    strides = laid_out.strides();
    offset = laid_out.storage_offset();
  }
  return Tensor(std::make_shared<TensorImpl>(nullptr, spec.data.shape, strides, offset, spec.data.dtype, Device::Meta));
}

TensorData tensor_metadata_of(const Tensor& tensor) {
  TensorData data;
  data.dtype = tensor.dtype();
  data.shape = tensor.shape();
  return data;
}

TensorData tensor_data_of(const Tensor& tensor) {
  if (tensor.device() != Device::Cpu)
    throw CaseError("", "", fmt::format("a {} tensor has no values to compare", device_name(tensor.device())));
  TensorData data;
  data.dtype = tensor.dtype();
  data.shape = tensor.shape();
  visit_dtype(tensor.dtype(), [&]<typename T>() {
    if constexpr (is_oracle_v<T>) {
      throw CaseError("", "", "an oracle-dtype result cannot be compared with a case's values");
    } else {
      const T* base = tensor.data<T>();
      data.bytes.reserve(static_cast<std::size_t>(tensor.numel()) * sizeof(T));
      for_each_offset<1>(tensor.shape(), {tensor.strides()}, [&](const std::array<std::int64_t, 1>& at) {
        const T value = base[at[0]];
        const auto* raw = reinterpret_cast<const std::uint8_t*>(&value);
        data.bytes.insert(data.bytes.end(), raw, raw + sizeof(T));
      });
    }
  });
  return data;
}

}  // namespace funcspec::conformance
