#include "reference/backends/cpu/creation.h"

namespace funcspec::cpu {

void fill(const Tensor& out, const Scalar& value) {
  visit_dtype(out.dtype(), [&]<typename T>() {
    const T v = value.to<T>();
    T* base = out.data<T>();
    for_each_offset<1>(out.shape(), {out.strides()}, [&](const std::array<std::int64_t, 1>& at) { base[at[0]] = v; });
  });
}

void arange(const Tensor& out, const Scalar& start, const Scalar& step, bool integral) {
  visit_dtype(out.dtype(), [&]<typename T>() {
    // The oracle computes in its own precision; every other dtype in double, as PyTorch's cpu
    // kernel accumulates float32 in double.
    using Wide = std::conditional_t<is_oracle_v<T>, oracle_t, double>;
    T* base = out.data<T>();
    const std::int64_t stride = out.strides().empty() ? 1 : out.strides()[0];
    for (std::int64_t i = 0; i < out.numel(); ++i) {
      if (integral) {
        base[i * stride] = cast_scalar<T>(start.to<std::int64_t>() + i * step.to<std::int64_t>());
      } else {
        base[i * stride] = cast_scalar<T>(start.to<Wide>() + Wide(static_cast<double>(i)) * step.to<Wide>());
      }
    }
  });
}

}  // namespace funcspec::cpu
