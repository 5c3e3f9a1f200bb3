// Host glue of the random family's CUDA kernels (random.cu; NOTE: [cuda random kernels] in
// random_launch.h): the checks and messages of backends/cpu/random.cpp, views, dtype dispatch.
#include "reference/backends/cuda/random.h"

#include <type_traits>
#include <vector>

#include "reference/backends/cuda/cuda_device.h"
#include "reference/backends/cuda/cuda_dtype.h"
#include "reference/backends/cuda/device_tensor.h"
#include "reference/backends/cuda/random_launch.h"

namespace funcspec::cuda {
namespace random_glue {

// The same over float32 and float64 (the op layer has rejected the other dtypes).
template <typename Fn>
void visit_cuda_floating_dtype(DType dtype, Fn&& fn) {
  visit_cuda_dtype(dtype, [&]<typename T>() {
    if constexpr (std::is_floating_point_v<T>)
      fn.template operator()<T>();
    else
      FUNCSPEC_UNREACHABLE("a random kernel for floating dtypes got a non-floating tensor");
  });
}

// The element at row-major `position` of `view` (over `geometry`), copied to the host.
template <typename T>
T element_on_host(const StridedView<T>& view, const Geometry& geometry, std::int64_t position) {
  T value{};
  copy_device_to_host(&value, view.data + offset_of(position, geometry, view.strides), sizeof(T));
  return value;
}

}  // namespace random_glue

using random_glue::element_on_host;
using random_glue::visit_cuda_floating_dtype;

void fill_uniform(const Tensor& out, const random::PhiloxStream& stream, double from, double to) {
  const Geometry geometry = geometry_of(out.shape(), "uniform");
  visit_cuda_floating_dtype(out.dtype(), [&]<typename T>() {
    const T low = T(from), width = T(to) - T(from);  // as the cpu rounds them
    launch_fill_uniform<T>(geometry, strided_view_of<T>(out, "uniform"), stream, low, width);
  });
}

void fill_normal(const Tensor& out, const random::PhiloxStream& stream, double mean, double std) {
  const Geometry geometry = geometry_of(out.shape(), "normal");
  visit_cuda_floating_dtype(out.dtype(), [&]<typename T>() {
    launch_fill_normal<T>(geometry, strided_view_of<T>(out, "normal"), stream, T(mean), T(std));
  });
}

void fill_exponential(const Tensor& out, const random::PhiloxStream& stream, double lambd) {
  const Geometry geometry = geometry_of(out.shape(), "exponential");
  visit_cuda_floating_dtype(out.dtype(), [&]<typename T>() {
    launch_fill_exponential<T>(geometry, strided_view_of<T>(out, "exponential"), stream, T(lambd));
  });
}

void fill_randint(const Tensor& out, const random::PhiloxStream& stream, std::int64_t low, std::int64_t high) {
  const Geometry geometry = geometry_of(out.shape(), "randint");
  visit_cuda_dtype(out.dtype(), [&]<typename T>() {
    launch_fill_randint<T>(geometry, strided_view_of<T>(out, "randint"), stream, low, high);
  });
}

void fill_bernoulli_scalar(const Tensor& out, const random::PhiloxStream& stream, double p) {
  const Geometry geometry = geometry_of(out.shape(), "bernoulli");
  visit_cuda_dtype(out.dtype(), [&]<typename T>() {
    launch_fill_bernoulli_scalar<T>(geometry, strided_view_of<T>(out, "bernoulli"), stream, p);
  });
}

void bernoulli_tensor(const Tensor& p, const Tensor& out, const random::PhiloxStream& stream) {
  const Geometry geometry = geometry_of(out.shape(), "bernoulli");
  visit_cuda_floating_dtype(out.dtype(), [&]<typename T>() {
    const StridedView<T> probabilities = strided_view_of<T>(p, "bernoulli");
    // Every probability is checked before any element is written.
    const std::int64_t invalid = first_probability_outside_unit_interval<T>(geometry, probabilities);
    if (invalid >= 0) {
      fail(ErrorKind::InvalidArgument, "[bernoulli] every probability must lie in [0, 1] but one is {}",
           static_cast<double>(element_on_host(probabilities, geometry, invalid)));
    }
    launch_bernoulli_tensor<T>(geometry, probabilities, strided_view_of<T>(out, "bernoulli"), stream);
  });
}

void normal_tensor(const Tensor& mean, const Tensor& std, const Tensor& out, const random::PhiloxStream& stream) {
  const Geometry geometry = geometry_of(out.shape(), "normal");
  visit_cuda_floating_dtype(out.dtype(), [&]<typename T>() {
    const StridedView<T> stds = strided_view_of<T>(std, "normal");
    const std::int64_t invalid = first_invalid_std<T>(geometry, stds);
    if (invalid >= 0) {
      fail(ErrorKind::InvalidArgument, "[normal] every std must be >= 0 but one is {}",
           static_cast<double>(element_on_host(stds, geometry, invalid)));
    }
    launch_normal_tensor<T>(geometry, strided_view_of<T>(mean, "normal"), stds, strided_view_of<T>(out, "normal"),
                            stream);
  });
}

void multinomial(const Tensor& weights, const Tensor& out, std::int64_t num_samples, bool replacement,
                 const random::PhiloxStream& stream) {
  const std::int64_t rows = weights.dim() == 2 ? weights.shape()[0] : 1;
  const std::int64_t categories = weights.shape().back();
  // Scratch on the device: the weights as doubles, their running sums (or the race's finishing
  // times), and what the row pass learns of each row.
  const Tensor as_double = Tensor::empty({rows, categories}, DType::Float64, Device::Cuda);
  const Tensor scratch = Tensor::empty({rows, categories}, DType::Float64, Device::Cuda);
  const Tensor facts = Tensor::empty({rows, kMultinomialFacts}, DType::Int64, Device::Cuda);
  visit_cuda_floating_dtype(weights.dtype(), [&]<typename T>() {
    WeightRows<T> in;
    in.data = device_data<T>(weights);
    in.rows = rows;
    in.categories = categories;
    in.row_stride = weights.dim() == 2 ? weights.strides()[0] : 0;
    in.column_stride = weights.strides().back();
    launch_multinomial_rows<T>(in, device_data<double>(as_double), device_data<double>(scratch),
                               device_data<std::int64_t>(facts));
  });
  // The cpu's checks, row by row, in its order.
  const std::vector<std::int64_t> learned = facts.to_vector<std::int64_t>();
  for (std::int64_t r = 0; r < rows; ++r) {
    const std::int64_t* row = learned.data() + r * kMultinomialFacts;
    if (row[kMultinomialProblem] == 1) {
      double v = 0;
      copy_device_to_host(&v, device_data<double>(as_double) + r * categories + row[kMultinomialBadColumn], sizeof v);
      fail(ErrorKind::InvalidArgument, "[multinomial] weights must be finite and >= 0 but row {} holds {}", r, v);
    }
    FUNCSPEC_CHECK(row[kMultinomialProblem] != 2, ErrorKind::InvalidArgument,
                   "[multinomial] row {} has weights summing to 0", r);
    const std::int64_t positive = row[kMultinomialPositive];
    FUNCSPEC_CHECK(replacement || positive >= num_samples, ErrorKind::InvalidArgument,
                   "[multinomial] cannot draw {} samples without replacement from row {}, which has only {} "
                   "categories of non-zero weight",
                   num_samples, r, positive);
  }
  std::int64_t* out_data = device_data<std::int64_t>(out);
  const std::int64_t out_row_stride = out.dim() == 2 ? out.strides()[0] : 0;
  const std::int64_t out_column_stride = out.strides().back();
  if (replacement) {
    launch_multinomial_with_replacement(rows, categories, num_samples, device_data<double>(scratch),
                                        device_data<std::int64_t>(facts), stream, out_data, out_row_stride,
                                        out_column_stride);
  } else {
    launch_multinomial_without_replacement(rows, categories, num_samples, device_data<double>(as_double),
                                           device_data<double>(scratch), stream, out_data, out_row_stride,
                                           out_column_stride);
  }
}

}  // namespace funcspec::cuda
