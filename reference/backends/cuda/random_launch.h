#pragma once
// Launchers of the random family's CUDA kernels (random.cu), called by the host glue
// (random.cpp). Plain C++17.
//
// NOTE: [cuda random kernels]
// Every random kernel gives the cpu's bits (backends/cpu/random.cpp) for the same stream: element
// i of the draw space (row-major over the output) is computed from stream.block(i) by the same
// host+device functions of reference/random/distributions.h, one thread per element, and the
// final a + b * c is the same explicit fma (fmaf for float32). random.cu is compiled with
// --fmad=false, so nvcc never contracts any other product and sum into an fma the cpu does not
// have. The scalar parameters (from, to - from, mean, std) are rounded to the output's dtype on the
// host by the cpu's own expressions. multinomial follows the cpu's block layout: row r uses blocks
// r * K .. r * K + K - 1 (K = num_samples with replacement, the number of categories without) and
// the cpu's double arithmetic: per row, one thread sums the weights in order (the cumulative
// weights); with replacement, each sample inverts them by the cpu's upper_bound; without, each
// category of positive weight finishes the exponential race at E_c / w_c, and its place in the
// cpu's sorted (finish, category) order is counted by comparing it with every other category of
// its row (O(K^2) per row, fine for a reference).
// Data checks (probabilities in [0, 1], std >= 0, multinomial weights) run before anything is
// written; the host glue raises the cpu's errors for the first offending element in row-major
// order.
#include <cstdint>

#include "reference/backends/cuda/strided_view.h"
#include "reference/random/philox.h"

namespace funcspec::cuda {

// The launches behind cuda::philox_blocks (cuda_device.h).
void launch_philox_blocks(std::uint64_t seed, std::uint64_t offset, std::uint32_t* device_out, std::int64_t count);

// out[i] = fma(width, uniform(block(i)), low); T is float or double.
template <typename T>
void launch_fill_uniform(const Geometry& geometry, const StridedView<T>& out, const random::PhiloxStream& stream, T low,
                         T width);

// out[i] = fma(std, normal(block(i)), mean); T is float or double.
template <typename T>
void launch_fill_normal(const Geometry& geometry, const StridedView<T>& out, const random::PhiloxStream& stream, T mean,
                        T std);

// out[i] = exponential(block(i)) / rate; T is float or double.
template <typename T>
void launch_fill_exponential(const Geometry& geometry, const StridedView<T>& out, const random::PhiloxStream& stream,
                             T rate);

// out[i] = randint_value(block(i), low, high) converted to T.
template <typename T>
void launch_fill_randint(const Geometry& geometry, const StridedView<T>& out, const random::PhiloxStream& stream,
                         std::int64_t low, std::int64_t high);

// out[i] = bernoulli_from_double(block(i), p) converted to T.
template <typename T>
void launch_fill_bernoulli_scalar(const Geometry& geometry, const StridedView<T>& out,
                                  const random::PhiloxStream& stream, double p);

// The row-major position of the first probability outside [0, 1] (NaN included), or -1.
template <typename T>
std::int64_t first_probability_outside_unit_interval(const Geometry& geometry, const StridedView<T>& p);

// out[i] = bernoulli(block(i), p[i]) ? 1 : 0; T is float or double.
template <typename T>
void launch_bernoulli_tensor(const Geometry& geometry, const StridedView<T>& p, const StridedView<T>& out,
                             const random::PhiloxStream& stream);

// The row-major position of the first std that is not >= 0 (NaN included), or -1.
template <typename T>
std::int64_t first_invalid_std(const Geometry& geometry, const StridedView<T>& std);

// out[i] = fma(std[i], normal(block(i)), mean[i]); T is float or double.
template <typename T>
void launch_normal_tensor(const Geometry& geometry, const StridedView<T>& mean, const StridedView<T>& std,
                          const StridedView<T>& out, const random::PhiloxStream& stream);

// multinomial's weights: element (r, c) at data[r * row_stride + c * column_stride].
template <typename T>
struct WeightRows {
  const T* data = nullptr;
  std::int64_t rows = 0;
  std::int64_t categories = 0;
  std::int64_t row_stride = 0;
  std::int64_t column_stride = 0;
};

// What the row pass learns of each row r, in facts[r * kMultinomialFacts + k].
enum MultinomialFact : int {
  kMultinomialProblem = 0,  // 0: fine; 1: the weight at column kMultinomialBadColumn is not finite or < 0;
                            // 2: the weights sum to 0 (checked in that order, as the cpu does)
  kMultinomialBadColumn = 1,
  kMultinomialPositive = 2,      // how many weights are > 0
  kMultinomialLastPositive = 3,  // the last column whose weight is > 0
};
inline constexpr int kMultinomialFacts = 4;

// The row pass, one thread per row: weights[r, c] as doubles into `weights` ([rows, K]
// contiguous), their running sums in order into `cumulative` (same layout), and the facts.
template <typename T>
void launch_multinomial_rows(const WeightRows<T>& rows, double* weights, double* cumulative, std::int64_t* facts);

// Sample j of row r (block r * num_samples + j) into out[r * out_row_stride + j * out_column_stride].
void launch_multinomial_with_replacement(std::int64_t rows, std::int64_t categories, std::int64_t num_samples,
                                         const double* cumulative, const std::int64_t* facts,
                                         const random::PhiloxStream& stream, std::int64_t* out,
                                         std::int64_t out_row_stride, std::int64_t out_column_stride);

// The exponential race (block r * K + c for category c); `finish` is scratch of [rows, K] doubles.
void launch_multinomial_without_replacement(std::int64_t rows, std::int64_t categories, std::int64_t num_samples,
                                            const double* weights, double* finish, const random::PhiloxStream& stream,
                                            std::int64_t* out, std::int64_t out_row_stride,
                                            std::int64_t out_column_stride);

}  // namespace funcspec::cuda
