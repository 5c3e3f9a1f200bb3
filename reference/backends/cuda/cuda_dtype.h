#pragma once
// The host glue's dtype dispatch: like visit_dtype, over the dtypes a cuda tensor can hold (the
// oracle dtype never reaches cuda: its Storage refuses it).
#include "reference/core/dtype.h"
#include "reference/core/error.h"

namespace funcspec::cuda {

// Returns `fn.template operator()<T>()` with T bool, std::int64_t, float or double.
template <typename Fn>
decltype(auto) visit_cuda_dtype(DType dtype, Fn&& fn) {
  using Result = decltype(fn.template operator()<float>());
  return visit_dtype(dtype, [&]<typename T>() -> Result {
    if constexpr (is_oracle_v<T>)
      FUNCSPEC_UNREACHABLE("an oracle tensor reached a CUDA kernel");
    else
      return fn.template operator()<T>();
  });
}

}  // namespace funcspec::cuda
