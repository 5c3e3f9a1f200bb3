// NOTE: [device transfer] (tensor.h).
#include <algorithm>

#include "reference/core/cuda_memory.h"
#include "reference/core/strided_loop.h"
#include "reference/core/tensor.h"

namespace funcspec {
namespace {

Tensor keep_wrapped_flag(const Tensor& from, Tensor to) {
  to.impl_ptr()->set_wrapped_number(from.is_wrapped_number());
  return to;
}

Tensor contiguous_on_cpu(const Tensor& t) {
  if (t.is_contiguous()) return t;
  Tensor copy = Tensor::empty(t.shape(), t.dtype(), Device::Cpu);
  visit_dtype(t.dtype(), [&]<typename T>() {
    const T* from = t.data<T>();
    T* to = copy.data<T>();
    for_each_offset<2>(t.shape(), {copy.strides(), t.strides()},
                       [&](const std::array<std::int64_t, 2>& at) { to[at[0]] = from[at[1]]; });
  });
  return copy;
}

Tensor cpu_to_cuda(const Tensor& t) {
  const Tensor source = contiguous_on_cpu(t);
  Tensor out = Tensor::empty(t.shape(), t.dtype(), Device::Cuda);
  const std::size_t nbytes = static_cast<std::size_t>(t.numel()) * itemsize(t.dtype());
  visit_dtype(t.dtype(), [&]<typename T>() {
    cuda_memory::copy_to_device(static_cast<T*>(out.storage()->data()), source.data<T>(), nbytes);
  });
  return out;
}

// Copies the span of storage the view reaches (its strides may be anything: transposed, broadcast,
// negative), then gathers it into a contiguous tensor on the host.
Tensor cuda_to_cpu(const Tensor& t) {
  if (t.numel() == 0) return Tensor::empty(t.shape(), t.dtype(), Device::Cpu);
  std::int64_t lowest = t.storage_offset();
  std::int64_t highest = t.storage_offset();
  for (std::size_t d = 0; d < t.shape().size(); ++d) {
    const std::int64_t reach = t.strides()[d] * (t.shape()[d] - 1);
    (reach < 0 ? lowest : highest) += reach;
  }
  const std::int64_t span = highest - lowest + 1;
  Tensor staging = Tensor::empty({span}, t.dtype(), Device::Cpu);
  visit_dtype(t.dtype(), [&]<typename T>() {
    const T* device_base = static_cast<const T*>(t.storage()->data()) + lowest;
    cuda_memory::copy_to_host(staging.data<T>(), device_base, static_cast<std::size_t>(span) * sizeof(T));
  });
  return contiguous_on_cpu(Tensor::view_of(staging, t.shape(), t.strides(), t.storage_offset() - lowest));
}

}  // namespace

Tensor to_device(const Tensor& t, Device target) {
  FUNCSPEC_CHECK(t.payload() == nullptr, ErrorKind::InvalidArgument,
                 "[to_device] moving a transform's tensor between devices is not an op transforms see; move the "
                 "inputs before transforming");
  if (t.device() == target) return t;
  FUNCSPEC_CHECK(t.device() != Device::Meta, ErrorKind::DataDependentOnMeta,
                 "[to_device] a meta tensor has no values to move to {}", device_name(target));
  if (target == Device::Meta) return keep_wrapped_flag(t, Tensor::empty(t.shape(), t.dtype(), Device::Meta));
  if (target == Device::Cuda) return keep_wrapped_flag(t, cpu_to_cuda(t));
  return keep_wrapped_flag(t, cuda_to_cpu(t));
}

}  // namespace funcspec
