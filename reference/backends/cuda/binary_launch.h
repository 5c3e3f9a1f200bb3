#pragma once
// Launchers of the binary kernels (binary.cu), called by the host glue (binary.cpp). Plain C++17.
#include <cstdint>

#include "reference/backends/common/binary_fn.h"
#include "reference/backends/cuda/strided_view.h"

namespace funcspec::cuda {

// out[i] = fn(a[i], b[i]) in T; alpha (already converted to T) scales b for Add and Sub. Returns
// false, launching nothing, when fn is not defined on T.
template <typename T>
bool launch_binary(common::BinaryFn fn, const Geometry& geometry, const StridedView<T>& out, const StridedView<T>& a,
                   const StridedView<T>& b, T alpha);

// The first element, in row-major order, of the int64 operand b that `rule` rejects. Returns its
// linear index and stores its value in *value, or returns -1 when every element is valid.
// Synchronous.
std::int64_t launch_first_invalid_integer_operand(const Geometry& geometry, const StridedView<std::int64_t>& b,
                                                  common::IntegerOperandRule rule, std::int64_t* value);

// out[i] = fn(a[i], b[i]). Returns false, launching nothing, when fn is not defined on T.
template <typename T>
bool launch_compare(common::CompareFn fn, const Geometry& geometry, const StridedView<bool>& out,
                    const StridedView<T>& a, const StridedView<T>& b);

// out[i] = condition[i] ? a[i] : b[i].
template <typename T>
void launch_where(const Geometry& geometry, const StridedView<T>& out, const StridedView<bool>& condition,
                  const StridedView<T>& a, const StridedView<T>& b);

// out[i] = clamp(self[i], low[i], high[i]); an absent bound (has_low / has_high false) is ignored
// and its view unused. At least one bound is present.
template <typename T>
void launch_clamp(const Geometry& geometry, const StridedView<T>& out, const StridedView<T>& self,
                  const StridedView<T>& low, bool has_low, const StridedView<T>& high, bool has_high);

}  // namespace funcspec::cuda
