#include "reference/backends/cpu/random.h"

#include <algorithm>
#include <numeric>
#include <vector>

#include "reference/backends/common/random_draws.h"
#include "reference/core/strided_loop.h"

namespace funcspec::cpu {
namespace {

// Visits out's elements in row-major order with their row-major index, the index of their block.
template <typename T, typename Fn>
void fill_by_index(const Tensor& out, Fn&& value_of_index) {
  T* base = out.data<T>();
  std::uint64_t index = 0;
  for_each_offset<1>(out.shape(), {out.strides()},
                     [&](const std::array<std::int64_t, 1>& at) { base[at[0]] = value_of_index(index++); });
}

// The weights of one row of multinomial's input, as doubles (multinomial computes in double for
// every dtype, so that its discrete choice does not depend on the dtype of the weights).
std::vector<double> weight_row(const Tensor& weights, std::int64_t row) {
  const std::int64_t categories = weights.shape().back();
  const std::int64_t row_stride = weights.dim() == 2 ? weights.strides()[0] : 0;
  const std::int64_t column_stride = weights.strides().back();
  std::vector<double> out(static_cast<std::size_t>(categories));
  visit_floating_dtype(weights.dtype(), [&]<typename T>() {
    const T* base = weights.data<T>() + row * row_stride;
    for (std::int64_t c = 0; c < categories; ++c)
      out[static_cast<std::size_t>(c)] = cast_scalar<double>(base[c * column_stride]);
  });
  return out;
}

}  // namespace

void fill_uniform(const Tensor& out, const random::PhiloxStream& stream, double from, double to) {
  visit_floating_dtype(out.dtype(), [&]<typename T>() {
    const T low = T(from), width = T(to) - T(from);
    fill_by_index<T>(out, [&](std::uint64_t i) {
      return common::multiply_add(width, common::uniform_draw<T>(stream.block(i)), low);
    });
  });
}

void fill_normal(const Tensor& out, const random::PhiloxStream& stream, double mean, double std) {
  visit_floating_dtype(out.dtype(), [&]<typename T>() {
    const T m = T(mean), s = T(std);
    fill_by_index<T>(
        out, [&](std::uint64_t i) { return common::multiply_add(s, common::normal_draw<T>(stream.block(i)), m); });
  });
}

void fill_exponential(const Tensor& out, const random::PhiloxStream& stream, double lambd) {
  visit_floating_dtype(out.dtype(), [&]<typename T>() {
    const T rate = T(lambd);
    fill_by_index<T>(out, [&](std::uint64_t i) { return common::exponential_draw<T>(stream.block(i)) / rate; });
  });
}

void fill_randint(const Tensor& out, const random::PhiloxStream& stream, std::int64_t low, std::int64_t high) {
  visit_dtype(out.dtype(), [&]<typename T>() {
    fill_by_index<T>(
        out, [&](std::uint64_t i) { return cast_scalar<T>(random::randint_value(stream.block(i), low, high)); });
  });
}

void fill_bernoulli_scalar(const Tensor& out, const random::PhiloxStream& stream, double p) {
  visit_dtype(out.dtype(), [&]<typename T>() {
    fill_by_index<T>(
        out, [&](std::uint64_t i) { return cast_scalar<T>(random::bernoulli_from_double(stream.block(i), p)); });
  });
}

void bernoulli_tensor(const Tensor& p, const Tensor& out, const random::PhiloxStream& stream) {
  visit_floating_dtype(out.dtype(), [&]<typename T>() {
    const T* probabilities = p.data<T>();
    // Every probability is checked before any element is written.
    for_each_offset<1>(p.shape(), {p.strides()}, [&](const std::array<std::int64_t, 1>& at) {
      const T& value = probabilities[at[0]];
      FUNCSPEC_CHECK(value >= T(0) && value <= T(1), ErrorKind::InvalidArgument,
                     "[bernoulli] every probability must lie in [0, 1] but one is {}", cast_scalar<double>(value));
    });
    T* base = out.data<T>();
    std::uint64_t index = 0;
    for_each_offset<2>(out.shape(), {out.strides(), p.strides()}, [&](const std::array<std::int64_t, 2>& at) {
      base[at[0]] = common::bernoulli_draw<T>(stream.block(index++), probabilities[at[1]]) ? T(1) : T(0);
    });
  });
}

void normal_tensor(const Tensor& mean, const Tensor& std, const Tensor& out, const random::PhiloxStream& stream) {
  visit_floating_dtype(out.dtype(), [&]<typename T>() {
    const T* means = mean.data<T>();
    const T* stds = std.data<T>();
    for_each_offset<1>(std.shape(), {std.strides()}, [&](const std::array<std::int64_t, 1>& at) {
      FUNCSPEC_CHECK(stds[at[0]] >= T(0), ErrorKind::InvalidArgument, "[normal] every std must be >= 0 but one is {}",
                     cast_scalar<double>(stds[at[0]]));
    });
    T* base = out.data<T>();
    std::uint64_t index = 0;
    for_each_offset<3>(
        out.shape(), {out.strides(), mean.strides(), std.strides()}, [&](const std::array<std::int64_t, 3>& at) {
          base[at[0]] = common::multiply_add(stds[at[2]], common::normal_draw<T>(stream.block(index++)), means[at[1]]);
        });
  });
}

// Row r of the result uses blocks r * K .. r * K + K - 1 of the stream, where K is the number of
// categories without replacement (one exponential per category: the race) and num_samples with
// replacement (one uniform per sample: inversion of the cumulative weights).
void multinomial(const Tensor& weights, const Tensor& out, std::int64_t num_samples, bool replacement,
                 const random::PhiloxStream& stream) {
  const std::int64_t rows = weights.dim() == 2 ? weights.shape()[0] : 1;
  const std::int64_t categories = weights.shape().back();
  std::vector<std::vector<double>> all_rows;
  for (std::int64_t r = 0; r < rows; ++r) {
    std::vector<double> w = weight_row(weights, r);
    double total = 0;
    std::int64_t positive = 0;
    for (double v : w) {
      FUNCSPEC_CHECK(std::isfinite(v) && v >= 0, ErrorKind::InvalidArgument,
                     "[multinomial] weights must be finite and >= 0 but row {} holds {}", r, v);
      total += v;
      positive += v > 0 ? 1 : 0;
    }
    FUNCSPEC_CHECK(total > 0, ErrorKind::InvalidArgument, "[multinomial] row {} has weights summing to 0", r);
    FUNCSPEC_CHECK(replacement || positive >= num_samples, ErrorKind::InvalidArgument,
                   "[multinomial] cannot draw {} samples without replacement from row {}, which has only {} "
                   "categories of non-zero weight",
                   num_samples, r, positive);
    all_rows.push_back(std::move(w));
  }
  std::int64_t* base = out.data<std::int64_t>();
  const std::int64_t row_stride = out.dim() == 2 ? out.strides()[0] : 0;
  const std::int64_t column_stride = out.strides().back();
  for (std::int64_t r = 0; r < rows; ++r) {
    const std::vector<double>& w = all_rows[static_cast<std::size_t>(r)];
    std::int64_t* row_out = base + r * row_stride;
    if (replacement) {
      std::vector<double> cumulative(w.size());
      std::partial_sum(w.begin(), w.end(), cumulative.begin());
      const std::int64_t last_positive =
          static_cast<std::int64_t>(w.rend() - std::find_if(w.rbegin(), w.rend(), [](double v) { return v > 0; }) - 1);
      for (std::int64_t j = 0; j < num_samples; ++j) {
        const double target =
            random::uniform_float64(stream.block(static_cast<std::uint64_t>(r * num_samples + j))) * cumulative.back();
        const auto it = std::upper_bound(cumulative.begin(), cumulative.end(), target);
        // Rounding can put target at the total; the last category of positive weight takes it.
        row_out[j * column_stride] = it == cumulative.end()
                                         ? last_positive
                                         : std::min(static_cast<std::int64_t>(it - cumulative.begin()), last_positive);
      }
    } else {
      // The exponential race: category c finishes at E_c / w_c; the first num_samples to finish
      // are drawn, in finishing order, ties going to the lower index.
      std::vector<std::pair<double, std::int64_t>> finish;
      for (std::int64_t c = 0; c < categories; ++c) {
        const double weight = w[static_cast<std::size_t>(c)];
        if (weight == 0) continue;
        const double e = random::exponential_float64(stream.block(static_cast<std::uint64_t>(r * categories + c)));
        finish.emplace_back(e / weight, c);
      }
      std::sort(finish.begin(), finish.end());
      for (std::int64_t j = 0; j < num_samples; ++j)
        row_out[j * column_stride] = finish[static_cast<std::size_t>(j)].second;
    }
  }
}

}  // namespace funcspec::cpu
