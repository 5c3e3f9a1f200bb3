#pragma once
// Elementwise drivers over operands of one shape (the op layer has broadcast them already): the
// scalar function is all a kernel has to say.
#include "reference/core/tensor.h"

namespace funcspec::cpu {

// out[i] = fn(a[i]) with a of element type In and out of element type Out.
template <typename Out, typename In, typename Fn>
void map1(const Tensor& a, const Tensor& out, Fn&& fn) {
  const In* pa = a.data<In>();
  Out* po = out.data<Out>();
  for_each_offset<2>(out.shape(), {out.strides(), a.strides()},
                     [&](const std::array<std::int64_t, 2>& at) { po[at[0]] = fn(pa[at[1]]); });
}

// out[i] = fn(a[i], b[i]).
template <typename Out, typename In, typename Fn>
void map2(const Tensor& a, const Tensor& b, const Tensor& out, Fn&& fn) {
  const In* pa = a.data<In>();
  const In* pb = b.data<In>();
  Out* po = out.data<Out>();
  for_each_offset<3>(out.shape(), {out.strides(), a.strides(), b.strides()},
                     [&](const std::array<std::int64_t, 3>& at) { po[at[0]] = fn(pa[at[1]], pb[at[2]]); });
}

// out[i] = fn(a[i], b[i], c[i]) with a of element type A and b, c of element type In.
template <typename Out, typename A, typename In, typename Fn>
void map3(const Tensor& a, const Tensor& b, const Tensor& c, const Tensor& out, Fn&& fn) {
  const A* pa = a.data<A>();
  const In* pb = b.data<In>();
  const In* pc = c.data<In>();
  Out* po = out.data<Out>();
  for_each_offset<4>(out.shape(), {out.strides(), a.strides(), b.strides(), c.strides()},
                     [&](const std::array<std::int64_t, 4>& at) { po[at[0]] = fn(pa[at[1]], pb[at[2]], pc[at[3]]); });
}

}  // namespace funcspec::cpu
