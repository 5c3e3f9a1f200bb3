#pragma once
// The matrix exponential by scaling and squaring with a Taylor approximant, written once for every
// floating type so that the oracle dtype runs the very algorithm whose float32/float64 results it
// judges, and host+device so that the CUDA backend runs it too, one thread per matrix (compiled
// without fused multiply-adds, as linalg_lu.h's users are).
#include <cstdint>
#include <limits>

#include "reference/backends/common/scalar_math.h"
#include "reference/core/host_device.h"

namespace funcspec::common {

// NOTE: [matrix exponential]
// exp(A) = exp(A / 2^s)^(2^s). s is the least s >= 0 with ||A||₁ / 2^s <= 1/2 (the 1-norm, the
// largest column sum of magnitudes; halving is exact), so X = A / 2^s has ||X||₁ <= θ = 1/2. exp(X)
// is the Taylor polynomial of degree q evaluated by Horner's rule, R = I + X/q, R = I + X·R/k for
// k = q-1, ..., 1; the remainder is at most 2·θ^(q+1)/(q+1)! (the tail is bounded by a geometric
// series of ratio θ/(q+2) <= 1/2), and q is the least degree with θ^(q+1)/(q+1)! <= eps/8 for the
// type's machine epsilon: the truncation error is then at most eps/4 relative to ||exp(X)||₁ >=
// e^(-θ) (q = 8 for float32, 14 for float64, 35 for the 50-digit oracle dtype, which is therefore
// exp to about 50 digits). The result is R squared s times. Every matrix product sums its terms in
// increasing order of the inner index into an accumulator that starts at zero. A non-finite
// 1-norm (an inf or NaN entry) takes s = 0: the result is then NaN where the entries meet it.

// The Taylor degree q of NOTE: [matrix exponential] for the type T.
template <typename T>
FUNCSPEC_HOST_DEVICE std::int64_t matrix_exp_degree() {
  const T theta = T(1) / T(2);
  const T target = std::numeric_limits<T>::epsilon() / T(8);
  T term = theta;  // θ^(q+1)/(q+1)! for q = 0
  std::int64_t q = 0;
  while (term > target) {
    ++q;
    term = term * theta / T(q + 1);
  }
  return q;
}

// out = x·y for n×n row-major matrices; out must overlap neither.
template <typename T>
FUNCSPEC_HOST_DEVICE void matrix_product(const T* x, const T* y, std::int64_t n, T* out) {
  for (std::int64_t i = 0; i < n; ++i) {
    for (std::int64_t j = 0; j < n; ++j) {
      T sum(0);
      for (std::int64_t p = 0; p < n; ++p) sum += x[i * n + p] * y[p * n + j];
      out[i * n + j] = sum;
    }
  }
}

// exp(a) of the n×n row-major matrix `a` into `out`; `scratch` holds 2·n·n elements. `a` is not
// modified and must overlap neither.
template <typename T>
FUNCSPEC_HOST_DEVICE void matrix_exp(const T* a, std::int64_t n, T* out, T* scratch) {
  T* x = scratch;
  T* product = scratch + n * n;
  T norm(0);
  bool finite = true;
  for (std::int64_t j = 0; j < n; ++j) {
    T column(0);
    for (std::int64_t i = 0; i < n; ++i) {
      const T& value = a[i * n + j];
      if (math::isnan(value) || math::isinf(value)) finite = false;
      column += math::abs(value);
    }
    if (column > norm) norm = column;
  }
  const T theta = T(1) / T(2);
  std::int64_t squarings = 0;
  T scale(1);
  if (finite) {
    while (norm > theta) {
      norm = norm / T(2);
      scale = scale / T(2);
      ++squarings;
    }
  }
  for (std::int64_t e = 0; e < n * n; ++e) x[e] = a[e] * scale;

  const std::int64_t q = matrix_exp_degree<T>();
  for (std::int64_t i = 0; i < n; ++i) {
    for (std::int64_t j = 0; j < n; ++j) out[i * n + j] = (i == j ? T(1) : T(0)) + x[i * n + j] / T(q);
  }
  for (std::int64_t k = q - 1; k >= 1; --k) {
    matrix_product(x, out, n, product);
    for (std::int64_t i = 0; i < n; ++i) {
      for (std::int64_t j = 0; j < n; ++j) {
        out[i * n + j] = (i == j ? T(1) : T(0)) + product[i * n + j] / T(k);
      }
    }
  }
  for (std::int64_t s = 0; s < squarings; ++s) {
    matrix_product(out, out, n, product);
    for (std::int64_t e = 0; e < n * n; ++e) out[e] = product[e];
  }
}

}  // namespace funcspec::common
