// CUDA kernels of the unary elementwise ops: the functor of each function (backends/common/
// unary_functors.h, the cpu backend's too) mapped over the operands by the elementwise drivers.
#include <cstdint>
#include <type_traits>
#include <utility>

#include "reference/backends/common/unary_functors.h"
#include "reference/backends/cuda/elementwise.cuh"
#include "reference/backends/cuda/unary_launch.h"

namespace funcspec::cuda {

template <typename In, typename Out>
bool launch_unary(common::UnaryFn fn, const common::UnaryParams& params, const Geometry& geometry,
                  const StridedView<Out>& out, const StridedView<In>& in) {
  bool launched = false;
  common::visit_unary_fn<In>(fn, params, [&](const auto& functor) {
    // Only the functions that give Out: no kernel writes another function's result type.
    if constexpr (std::is_same_v<decltype(functor(std::declval<const In&>())), Out>) {
      elementwise::map1("unary kernel", geometry, out, in, functor);
      launched = true;
    }
  });
  return launched;
}

// Out = In for every cuda dtype, and bool (logical_not) for the others.
#define FUNCSPEC_INSTANTIATE(In, Out)                                                               \
  template bool launch_unary<In, Out>(common::UnaryFn, const common::UnaryParams&, const Geometry&, \
                                      const StridedView<Out>&, const StridedView<In>&);
FUNCSPEC_INSTANTIATE(bool, bool)
FUNCSPEC_INSTANTIATE(std::int64_t, std::int64_t)
FUNCSPEC_INSTANTIATE(std::int64_t, bool)
FUNCSPEC_INSTANTIATE(float, float)
FUNCSPEC_INSTANTIATE(float, bool)
FUNCSPEC_INSTANTIATE(double, double)
FUNCSPEC_INSTANTIATE(double, bool)
#undef FUNCSPEC_INSTANTIATE

}  // namespace funcspec::cuda
