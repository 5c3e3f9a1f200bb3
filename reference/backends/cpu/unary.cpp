#include "reference/backends/cpu/unary.h"

#include <utility>

#include "reference/backends/common/unary_functors.h"
#include "reference/backends/cpu/elementwise.h"

namespace funcspec::cpu {

void unary_kernel(common::UnaryFn fn, const Tensor& in, const Tensor& out, const common::UnaryParams& params) {
  visit_dtype(in.dtype(), [&]<typename T>() {
    const bool defined = common::visit_unary_fn<T>(fn, params, [&](const auto& functor) {
      using Out = decltype(functor(std::declval<const T&>()));  // T, or bool for logical_not
      FUNCSPEC_INTERNAL_ASSERT(out.dtype() == dtype_of<Out>(), "unary kernel with the wrong output dtype");
      map1<Out, T>(in, out, functor);
    });
    FUNCSPEC_INTERNAL_ASSERT(defined, "unary function not defined on this dtype");
  });
}

}  // namespace funcspec::cpu
