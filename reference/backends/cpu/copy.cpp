#include "reference/backends/cpu/copy.h"

namespace funcspec::cpu {

void copy_elements(const Tensor& src, const Tensor& dst) {
  FUNCSPEC_INTERNAL_ASSERT(src.shape() == dst.shape(), "copy_elements of different shapes");
  visit_dtype(src.dtype(), [&]<typename S>() {
    visit_dtype(dst.dtype(), [&]<typename D>() {
      const S* in = src.data<S>();
      D* out = dst.data<D>();
      for_each_offset<2>(dst.shape(), {dst.strides(), src.strides()},
                         [&](const std::array<std::int64_t, 2>& at) { out[at[0]] = cast_scalar<D>(in[at[1]]); });
    });
  });
}

}  // namespace funcspec::cpu
