#include "reference/backends/cpu/reduce.h"

#include <memory>
#include <vector>

#include "reference/backends/common/accumulator.h"
#include "reference/backends/common/scalar_math.h"

namespace funcspec::cpu {
namespace {

namespace math = common::math;

// Calls fn(row, out_index) once per output element, where `row` holds the input elements reduced
// into it in row-major order of the reduced index, and out_index is that element's position in
// the (contiguous) output. Kept dims are visited in row-major order too, which is the output's order
// whether or not it keeps the reduced dims as size 1.
template <typename T, typename Fn>
void for_each_row(const Tensor& in, std::span<const std::int64_t> dims, Fn&& fn) {
  const std::size_t rank = in.shape().size();
  std::vector<bool> reduced(rank, false);
  if (rank > 0) {
    for (std::int64_t d : dims) reduced[static_cast<std::size_t>(d)] = true;
  }
  Shape kept_shape, reduced_shape;
  Strides kept_strides, reduced_strides;
  for (std::size_t d = 0; d < rank; ++d) {
    (reduced[d] ? reduced_shape : kept_shape).push_back(in.shape()[d]);
    (reduced[d] ? reduced_strides : kept_strides).push_back(in.strides()[d]);
  }
  const T* base = in.data<T>();
  const auto row_length = static_cast<std::size_t>(numel_of(reduced_shape));
  // A plain array rather than std::vector, which does not hold bools as bool objects.
  const std::unique_ptr<T[]> row(new T[row_length]);
  std::int64_t out_index = 0;
  for_each_offset<1>(kept_shape, {kept_strides}, [&](const std::array<std::int64_t, 1>& kept_at) {
    std::size_t filled = 0;
    for_each_offset<1>(reduced_shape, {reduced_strides}, [&](const std::array<std::int64_t, 1>& reduced_at) {
      row[filled++] = base[kept_at[0] + reduced_at[0]];
    });
    fn(std::span<const T>(row.get(), row_length), out_index++);
  });
}

// A reduction whose output has the input's dtype: out = finish(row).
template <typename Fn>
void reduce_same_dtype(const Tensor& in, const Tensor& out, std::span<const std::int64_t> dims, Fn&& finish) {
  FUNCSPEC_INTERNAL_ASSERT(out.is_contiguous() && out.dtype() == in.dtype(), "reduction output layout");
  visit_dtype(in.dtype(), [&]<typename T>() {
    T* result = out.data<T>();
    for_each_row<T>(in, dims, [&](std::span<const T> row, std::int64_t i) { result[i] = finish(row); });
  });
}

// The first element of `row` that is NaN, or else the first one that `better` prefers to every
// other (ties keep the lower index). Returns its position; `row` must not be empty.
template <typename T, typename Better>
std::size_t extreme_index(std::span<const T> row, Better&& better) {
  std::size_t best = 0;
  if (math::isnan(row[0])) return 0;
  for (std::size_t i = 1; i < row.size(); ++i) {
    if (math::isnan(row[i])) return i;
    if (better(row[i], row[best])) best = i;
  }
  return best;
}

template <typename Better>
void extreme_value_kernel(const Tensor& in, const Tensor& out, std::span<const std::int64_t> dims, Better better) {
  reduce_same_dtype(in, out, dims, [&]<typename T>(std::span<const T> row) { return row[extreme_index(row, better)]; });
}

template <typename Better>
void extreme_index_kernel(const Tensor& in, const Tensor& out, std::span<const std::int64_t> dims, Better better) {
  FUNCSPEC_INTERNAL_ASSERT(out.is_contiguous() && out.dtype() == DType::Int64, "arg reduction output layout");
  std::int64_t* result = out.data<std::int64_t>();
  visit_dtype(in.dtype(), [&]<typename T>() {
    for_each_row<T>(in, dims, [&](std::span<const T> row, std::int64_t i) {
      result[i] = static_cast<std::int64_t>(extreme_index(row, better));
    });
  });
}

template <typename Predicate>
void bool_reduction_kernel(const Tensor& in, const Tensor& out, std::span<const std::int64_t> dims, bool empty_value,
                           Predicate&& stop_at, bool value_at_stop) {
  FUNCSPEC_INTERNAL_ASSERT(out.is_contiguous() && out.dtype() == DType::Bool, "bool reduction output layout");
  bool* result = out.data<bool>();
  visit_dtype(in.dtype(), [&]<typename T>() {
    for_each_row<T>(in, dims, [&](std::span<const T> row, std::int64_t i) {
      result[i] = empty_value;
      for (const T& x : row) {
        if (stop_at(cast_scalar<bool>(x))) {
          result[i] = value_at_stop;
          break;
        }
      }
    });
  });
}

struct Greater {
  template <typename T>
  bool operator()(const T& a, const T& b) const {
    return a > b;
  }
};

struct Less {
  template <typename T>
  bool operator()(const T& a, const T& b) const {
    return a < b;
  }
};

}  // namespace

void sum_kernel(const Tensor& in, const Tensor& out, std::span<const std::int64_t> dims) {
  reduce_same_dtype(in, out, dims, []<typename T>(std::span<const T> row) {
    using Acc = common::accumulator_t<T>;
    Acc total = Acc(0);
    for (const T& x : row) total += cast_scalar<Acc>(x);
    return cast_scalar<T>(total);
  });
}

void prod_kernel(const Tensor& in, const Tensor& out, std::span<const std::int64_t> dims) {
  reduce_same_dtype(in, out, dims, []<typename T>(std::span<const T> row) {
    using Acc = common::accumulator_t<T>;
    Acc product = Acc(1);
    for (const T& x : row) product *= cast_scalar<Acc>(x);
    return cast_scalar<T>(product);
  });
}

void amax_kernel(const Tensor& in, const Tensor& out, std::span<const std::int64_t> dims) {
  extreme_value_kernel(in, out, dims, Greater{});
}

void amin_kernel(const Tensor& in, const Tensor& out, std::span<const std::int64_t> dims) {
  extreme_value_kernel(in, out, dims, Less{});
}

void argmax_kernel(const Tensor& in, const Tensor& out, std::span<const std::int64_t> dims) {
  extreme_index_kernel(in, out, dims, Greater{});
}

void argmin_kernel(const Tensor& in, const Tensor& out, std::span<const std::int64_t> dims) {
  extreme_index_kernel(in, out, dims, Less{});
}

void all_kernel(const Tensor& in, const Tensor& out, std::span<const std::int64_t> dims) {
  bool_reduction_kernel(
      in, out, dims, true, [](bool x) { return !x; }, false);
}

void any_kernel(const Tensor& in, const Tensor& out, std::span<const std::int64_t> dims) {
  bool_reduction_kernel(
      in, out, dims, false, [](bool x) { return x; }, true);
}

void norm_kernel(const Tensor& in, const Tensor& out, std::span<const std::int64_t> dims, double p) {
  FUNCSPEC_INTERNAL_ASSERT(out.is_contiguous() && out.dtype() == in.dtype(), "norm output layout");
  visit_floating_dtype(in.dtype(), [&]<typename T>() {
    using Acc = common::accumulator_t<T>;
    T* result = out.data<T>();
    for_each_row<T>(in, dims, [&](std::span<const T> row, std::int64_t i) {
      std::vector<T> magnitudes;
      magnitudes.reserve(row.size());
      for (const T& x : row) magnitudes.push_back(math::abs(x));
      const std::span<const T> abs_row(magnitudes);
      if (math::isinf(p)) {
        result[i] = abs_row[p > 0 ? extreme_index(abs_row, Greater{}) : extreme_index(abs_row, Less{})];
        return;
      }
      Acc total = Acc(0);
      for (const T& m : abs_row) {
        const Acc a = cast_scalar<Acc>(m);
        if (p == 0)
          total += a != Acc(0) ? Acc(1) : Acc(0);  // NaN counts as non-zero
        else if (p == 1)
          total += a;
        else if (p == 2)
          total += a * a;
        else
          total += math::pow(a, Acc(p));
      }
      if (p == 2)
        total = math::sqrt(total);
      else if (p != 0 && p != 1)
        total = math::pow(total, Acc(1) / Acc(p));
      result[i] = cast_scalar<T>(total);
    });
  });
}

}  // namespace funcspec::cpu
