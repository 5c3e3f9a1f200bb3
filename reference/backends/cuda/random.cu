// CUDA kernels of the random family (NOTE: [cuda random kernels] in random_launch.h). The
// generator (philox.h), the distributions (distributions.h) and the per-dtype draws
// (backends/common/random_draws.h) are shared with the cpu, so the same stream gives the same bits
// on both. Compiled with --fmad=false (reference/CMakeLists.txt).
#include <cstdint>
#include <limits>

#include "reference/backends/common/random_draws.h"
#include "reference/backends/cuda/cuda_device.h"
#include "reference/backends/cuda/kernel_launch.h"
#include "reference/backends/cuda/random_launch.h"
#include "reference/core/cast_scalar.h"
#include "reference/random/distributions.h"

namespace funcspec::cuda {
namespace {

__global__ void philox_blocks_kernel(std::uint64_t seed, std::uint64_t offset, std::uint32_t* out, std::int64_t count) {
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= count) return;
  const random::PhiloxStream stream{seed, offset};
  const random::PhiloxBlock block = stream.block(static_cast<std::uint64_t>(i));
  for (int w = 0; w < 4; ++w) out[4 * i + w] = block[w];
}

template <typename T>
__global__ void fill_uniform_kernel(Geometry geometry, StridedView<T> out, random::PhiloxStream stream, T low,
                                    T width) {
  FUNCSPEC_GRID_STRIDE_LOOP(i, geometry.numel) {
    element_at(out, i, geometry) =
        common::multiply_add(width, common::uniform_draw<T>(stream.block(static_cast<std::uint64_t>(i))), low);
  }
}

template <typename T>
__global__ void fill_normal_kernel(Geometry geometry, StridedView<T> out, random::PhiloxStream stream, T mean, T std) {
  FUNCSPEC_GRID_STRIDE_LOOP(i, geometry.numel) {
    element_at(out, i, geometry) =
        common::multiply_add(std, common::normal_draw<T>(stream.block(static_cast<std::uint64_t>(i))), mean);
  }
}

template <typename T>
__global__ void fill_exponential_kernel(Geometry geometry, StridedView<T> out, random::PhiloxStream stream, T rate) {
  FUNCSPEC_GRID_STRIDE_LOOP(i, geometry.numel) {
    element_at(out, i, geometry) = common::exponential_draw<T>(stream.block(static_cast<std::uint64_t>(i))) / rate;
  }
}

template <typename T>
__global__ void fill_randint_kernel(Geometry geometry, StridedView<T> out, random::PhiloxStream stream,
                                    std::int64_t low, std::int64_t high) {
  FUNCSPEC_GRID_STRIDE_LOOP(i, geometry.numel) {
    element_at(out, i, geometry) =
        cast_scalar<T>(random::randint_value(stream.block(static_cast<std::uint64_t>(i)), low, high));
  }
}

template <typename T>
__global__ void fill_bernoulli_scalar_kernel(Geometry geometry, StridedView<T> out, random::PhiloxStream stream,
                                             double p) {
  FUNCSPEC_GRID_STRIDE_LOOP(i, geometry.numel) {
    element_at(out, i, geometry) =
        static_cast<T>(random::bernoulli_from_double(stream.block(static_cast<std::uint64_t>(i)), p));
  }
}

struct OutsideUnitInterval {
  template <typename T>
  __device__ bool operator()(T value) const {
    return !(value >= T(0) && value <= T(1));
  }
};

struct InvalidStd {
  template <typename T>
  __device__ bool operator()(T value) const {
    return !(value >= T(0));
  }
};

template <typename T, typename Invalid>
__global__ void first_invalid_kernel(Geometry geometry, StridedView<T> values, Invalid invalid,
                                     unsigned long long* first) {
  FUNCSPEC_GRID_STRIDE_LOOP(i, geometry.numel) {
    if (invalid(element_at(values, i, geometry))) atomicMin(first, static_cast<unsigned long long>(i));
  }
}

template <typename T>
__global__ void bernoulli_tensor_kernel(Geometry geometry, StridedView<T> p, StridedView<T> out,
                                        random::PhiloxStream stream) {
  FUNCSPEC_GRID_STRIDE_LOOP(i, geometry.numel) {
    const double probability = static_cast<double>(element_at(p, i, geometry));
    element_at(out, i, geometry) =
        random::bernoulli_from_double(stream.block(static_cast<std::uint64_t>(i)), probability) ? T(1) : T(0);
  }
}

template <typename T>
__global__ void normal_tensor_kernel(Geometry geometry, StridedView<T> mean, StridedView<T> std, StridedView<T> out,
                                     random::PhiloxStream stream) {
  FUNCSPEC_GRID_STRIDE_LOOP(i, geometry.numel) {
    element_at(out, i, geometry) = common::multiply_add(
        element_at(std, i, geometry), common::normal_draw<T>(stream.block(static_cast<std::uint64_t>(i))),
        element_at(mean, i, geometry));
  }
}

// The cpu's weight_row and validation loop of multinomial, one thread per row.
template <typename T>
__global__ void multinomial_rows_kernel(WeightRows<T> in, double* weights, double* cumulative, std::int64_t* facts) {
  FUNCSPEC_GRID_STRIDE_LOOP(r, in.rows) {
    std::int64_t* row_facts = facts + r * kMultinomialFacts;
    std::int64_t problem = 0, bad_column = -1, positive = 0, last_positive = -1;
    // total as the cpu's check sums (from 0), running as its std::partial_sum (from the first
    // weight): they differ at most in the sign of a zero.
    double total = 0, running = 0;
    for (std::int64_t c = 0; c < in.categories; ++c) {
      const double v = static_cast<double>(in.data[r * in.row_stride + c * in.column_stride]);
      weights[r * in.categories + c] = v;
      if (problem == 0 && !(::isfinite(v) && v >= 0)) {
        problem = 1;
        bad_column = c;
      }
      total += v;
      running = c == 0 ? v : running + v;
      cumulative[r * in.categories + c] = running;
      if (v > 0) {
        ++positive;
        last_positive = c;
      }
    }
    if (problem == 0 && !(total > 0)) problem = 2;
    row_facts[kMultinomialProblem] = problem;
    row_facts[kMultinomialBadColumn] = bad_column;
    row_facts[kMultinomialPositive] = positive;
    row_facts[kMultinomialLastPositive] = last_positive;
  }
}

__global__ void multinomial_with_replacement_kernel(std::int64_t rows, std::int64_t categories,
                                                    std::int64_t num_samples, const double* cumulative,
                                                    const std::int64_t* facts, random::PhiloxStream stream,
                                                    std::int64_t* out, std::int64_t out_row_stride,
                                                    std::int64_t out_column_stride) {
  FUNCSPEC_GRID_STRIDE_LOOP(t, rows * num_samples) {
    const std::int64_t r = t / num_samples, j = t % num_samples;
    const double* row = cumulative + r * categories;
    const double target = random::uniform_float64(stream.block(static_cast<std::uint64_t>(t))) * row[categories - 1];
    // std::upper_bound: the first cumulative weight greater than target (categories if none).
    std::int64_t low = 0, high = categories;
    while (low < high) {
      const std::int64_t middle = low + (high - low) / 2;
      if (target < row[middle])
        high = middle;
      else
        low = middle + 1;
    }
    const std::int64_t last_positive = facts[r * kMultinomialFacts + kMultinomialLastPositive];
    out[r * out_row_stride + j * out_column_stride] =
        low == categories ? last_positive : (low < last_positive ? low : last_positive);
  }
}

__global__ void multinomial_finish_kernel(std::int64_t rows, std::int64_t categories, const double* weights,
                                          double* finish, random::PhiloxStream stream) {
  FUNCSPEC_GRID_STRIDE_LOOP(t, rows * categories) {
    const double weight = weights[t];
    if (weight == 0) continue;
    finish[t] = random::exponential_float64(stream.block(static_cast<std::uint64_t>(t))) / weight;
  }
}

// Category c's place in the cpu's std::sort of (finish, category) pairs over the row's positive
// weights; the first num_samples places are the draws.
__global__ void multinomial_race_kernel(std::int64_t rows, std::int64_t categories, std::int64_t num_samples,
                                        const double* weights, const double* finish, std::int64_t* out,
                                        std::int64_t out_row_stride, std::int64_t out_column_stride) {
  FUNCSPEC_GRID_STRIDE_LOOP(t, rows * categories) {
    if (weights[t] == 0) continue;
    const std::int64_t r = t / categories, c = t % categories;
    const double mine = finish[t];
    std::int64_t place = 0;
    for (std::int64_t other = 0; other < categories; ++other) {
      const std::int64_t u = r * categories + other;
      if (weights[u] == 0) continue;
      if (finish[u] < mine || (!(mine < finish[u]) && other < c)) ++place;
    }
    if (place < num_samples) out[r * out_row_stride + place * out_column_stride] = c;
  }
}

// A device word released when the launcher returns or throws.
struct DeviceWord {
  void* pointer = allocate(sizeof(unsigned long long));
  DeviceWord() = default;
  DeviceWord(const DeviceWord&) = delete;
  DeviceWord& operator=(const DeviceWord&) = delete;
  ~DeviceWord() { release(pointer); }
  unsigned long long* get() const { return static_cast<unsigned long long*>(pointer); }
};

template <typename T, typename Invalid>
std::int64_t first_invalid(const Geometry& geometry, const StridedView<T>& values, Invalid invalid, const char* what) {
  if (geometry.numel == 0) return -1;
  constexpr unsigned long long kNone = std::numeric_limits<unsigned long long>::max();
  const DeviceWord first;
  copy_host_to_device(first.get(), &kNone, sizeof kNone);
  FUNCSPEC_LAUNCH(blocks_for(geometry.numel), kThreadsPerBlock, first_invalid_kernel)
  (geometry, values, invalid, first.get());
  check_launch(what);
  unsigned long long position = kNone;
  copy_device_to_host(&position, first.get(), sizeof position);
  return position == kNone ? -1 : static_cast<std::int64_t>(position);
}

}  // namespace

void launch_philox_blocks(std::uint64_t seed, std::uint64_t offset, std::uint32_t* device_out, std::int64_t count) {
  if (count == 0) return;
  constexpr int kThreads = 256;
  const auto blocks = static_cast<unsigned>((count + kThreads - 1) / kThreads);
  FUNCSPEC_LAUNCH(blocks, kThreads, philox_blocks_kernel)(seed, offset, device_out, count);
}

template <typename T>
void launch_fill_uniform(const Geometry& geometry, const StridedView<T>& out, const random::PhiloxStream& stream, T low,
                         T width) {
  if (geometry.numel == 0) return;
  FUNCSPEC_LAUNCH(blocks_for(geometry.numel), kThreadsPerBlock, fill_uniform_kernel<T>)
  (geometry, out, stream, low, width);
  check_launch("the uniform kernel");
}

template <typename T>
void launch_fill_normal(const Geometry& geometry, const StridedView<T>& out, const random::PhiloxStream& stream, T mean,
                        T std) {
  if (geometry.numel == 0) return;
  FUNCSPEC_LAUNCH(blocks_for(geometry.numel), kThreadsPerBlock, fill_normal_kernel<T>)
  (geometry, out, stream, mean, std);
  check_launch("the normal kernel");
}

template <typename T>
void launch_fill_exponential(const Geometry& geometry, const StridedView<T>& out, const random::PhiloxStream& stream,
                             T rate) {
  if (geometry.numel == 0) return;
  FUNCSPEC_LAUNCH(blocks_for(geometry.numel), kThreadsPerBlock, fill_exponential_kernel<T>)
  (geometry, out, stream, rate);
  check_launch("the exponential kernel");
}

template <typename T>
void launch_fill_randint(const Geometry& geometry, const StridedView<T>& out, const random::PhiloxStream& stream,
                         std::int64_t low, std::int64_t high) {
  if (geometry.numel == 0) return;
  FUNCSPEC_LAUNCH(blocks_for(geometry.numel), kThreadsPerBlock, fill_randint_kernel<T>)
  (geometry, out, stream, low, high);
  check_launch("the randint kernel");
}

template <typename T>
void launch_fill_bernoulli_scalar(const Geometry& geometry, const StridedView<T>& out,
                                  const random::PhiloxStream& stream, double p) {
  if (geometry.numel == 0) return;
  FUNCSPEC_LAUNCH(blocks_for(geometry.numel), kThreadsPerBlock, fill_bernoulli_scalar_kernel<T>)
  (geometry, out, stream, p);
  check_launch("the bernoulli kernel");
}

template <typename T>
std::int64_t first_probability_outside_unit_interval(const Geometry& geometry, const StridedView<T>& p) {
  return first_invalid(geometry, p, OutsideUnitInterval{}, "the bernoulli probability check kernel");
}

template <typename T>
void launch_bernoulli_tensor(const Geometry& geometry, const StridedView<T>& p, const StridedView<T>& out,
                             const random::PhiloxStream& stream) {
  if (geometry.numel == 0) return;
  FUNCSPEC_LAUNCH(blocks_for(geometry.numel), kThreadsPerBlock, bernoulli_tensor_kernel<T>)(geometry, p, out, stream);
  check_launch("the bernoulli kernel");
}

template <typename T>
std::int64_t first_invalid_std(const Geometry& geometry, const StridedView<T>& std) {
  return first_invalid(geometry, std, InvalidStd{}, "the normal std check kernel");
}

template <typename T>
void launch_normal_tensor(const Geometry& geometry, const StridedView<T>& mean, const StridedView<T>& std,
                          const StridedView<T>& out, const random::PhiloxStream& stream) {
  if (geometry.numel == 0) return;
  FUNCSPEC_LAUNCH(blocks_for(geometry.numel), kThreadsPerBlock, normal_tensor_kernel<T>)
  (geometry, mean, std, out, stream);
  check_launch("the normal kernel");
}

template <typename T>
void launch_multinomial_rows(const WeightRows<T>& rows, double* weights, double* cumulative, std::int64_t* facts) {
  if (rows.rows == 0) return;
  FUNCSPEC_LAUNCH(blocks_for(rows.rows), kThreadsPerBlock, multinomial_rows_kernel<T>)
  (rows, weights, cumulative, facts);
  check_launch("the multinomial weight kernel");
}

void launch_multinomial_with_replacement(std::int64_t rows, std::int64_t categories, std::int64_t num_samples,
                                         const double* cumulative, const std::int64_t* facts,
                                         const random::PhiloxStream& stream, std::int64_t* out,
                                         std::int64_t out_row_stride, std::int64_t out_column_stride) {
  if (rows * num_samples == 0) return;
  FUNCSPEC_LAUNCH(blocks_for(rows * num_samples), kThreadsPerBlock, multinomial_with_replacement_kernel)
  (rows, categories, num_samples, cumulative, facts, stream, out, out_row_stride, out_column_stride);
  check_launch("the multinomial kernel");
}

void launch_multinomial_without_replacement(std::int64_t rows, std::int64_t categories, std::int64_t num_samples,
                                            const double* weights, double* finish, const random::PhiloxStream& stream,
                                            std::int64_t* out, std::int64_t out_row_stride,
                                            std::int64_t out_column_stride) {
  if (rows * categories == 0) return;
  FUNCSPEC_LAUNCH(blocks_for(rows * categories), kThreadsPerBlock, multinomial_finish_kernel)
  (rows, categories, weights, finish, stream);
  check_launch("the multinomial race kernel");
  FUNCSPEC_LAUNCH(blocks_for(rows * categories), kThreadsPerBlock, multinomial_race_kernel)
  (rows, categories, num_samples, weights, finish, out, out_row_stride, out_column_stride);
  check_launch("the multinomial race kernel");
}

#define FUNCSPEC_INSTANTIATE_ANY_DTYPE_RANDOM(T)                                                                     \
  template void launch_fill_randint<T>(const Geometry&, const StridedView<T>&, const random::PhiloxStream&,          \
                                       std::int64_t, std::int64_t);                                                  \
  template void launch_fill_bernoulli_scalar<T>(const Geometry&, const StridedView<T>&, const random::PhiloxStream&, \
                                                double);
#define FUNCSPEC_INSTANTIATE_FLOATING_RANDOM(T)                                                                     \
  template void launch_fill_uniform<T>(const Geometry&, const StridedView<T>&, const random::PhiloxStream&, T, T);  \
  template void launch_fill_normal<T>(const Geometry&, const StridedView<T>&, const random::PhiloxStream&, T, T);   \
  template void launch_fill_exponential<T>(const Geometry&, const StridedView<T>&, const random::PhiloxStream&, T); \
  template std::int64_t first_probability_outside_unit_interval<T>(const Geometry&, const StridedView<T>&);         \
  template void launch_bernoulli_tensor<T>(const Geometry&, const StridedView<T>&, const StridedView<T>&,           \
                                           const random::PhiloxStream&);                                            \
  template std::int64_t first_invalid_std<T>(const Geometry&, const StridedView<T>&);                               \
  template void launch_normal_tensor<T>(const Geometry&, const StridedView<T>&, const StridedView<T>&,              \
                                        const StridedView<T>&, const random::PhiloxStream&);                        \
  template void launch_multinomial_rows<T>(const WeightRows<T>&, double*, double*, std::int64_t*);
FUNCSPEC_INSTANTIATE_ANY_DTYPE_RANDOM(bool)
FUNCSPEC_INSTANTIATE_ANY_DTYPE_RANDOM(std::int64_t)
FUNCSPEC_INSTANTIATE_ANY_DTYPE_RANDOM(float)
FUNCSPEC_INSTANTIATE_ANY_DTYPE_RANDOM(double)
FUNCSPEC_INSTANTIATE_FLOATING_RANDOM(float)
FUNCSPEC_INSTANTIATE_FLOATING_RANDOM(double)
#undef FUNCSPEC_INSTANTIATE_ANY_DTYPE_RANDOM
#undef FUNCSPEC_INSTANTIATE_FLOATING_RANDOM

}  // namespace funcspec::cuda
