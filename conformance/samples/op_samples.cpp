#include "conformance/samples/op_samples.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "conformance/samples/special_points.h"
#include "reference/core/error.h"
#include "reference/ops/dispatch.h"

namespace funcspec::samples {

double OracleTolerance::magnitude_floor(const TensorList& inputs) const {
  double largest = 0;
  for (const Tensor& t : inputs) {
    if (!t.defined() || !is_floating(t.dtype()) || t.device() != Device::Cpu) continue;
    for (double v : t.to_vector<double>()) {
      if (std::isfinite(v)) largest = std::max(largest, std::abs(v));
    }
  }
  return std::max(absolute_floor, input_scale * largest);
}

double machine_epsilon(DType floating) {
  return floating == DType::Float32 ? static_cast<double>(std::numeric_limits<float>::epsilon())
                                    : std::numeric_limits<double>::epsilon();
}

std::uint64_t SampleRng::next_u64() {
  // splitmix64: tiny, portable, and good enough to spread sample values.
  std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

double SampleRng::uniform(double lo, double hi) {
  const double unit = static_cast<double>(next_u64() >> 11) * 0x1.0p-53;
  return lo + (hi - lo) * unit;
}

std::int64_t SampleRng::integer(std::int64_t lo, std::int64_t hi) {
  FUNCSPEC_INTERNAL_ASSERT(hi > lo, "empty integer range");
  return lo + static_cast<std::int64_t>(next_u64() % static_cast<std::uint64_t>(hi - lo));
}

Tensor SampleRng::tensor(const Shape& shape, DType dtype, double lo, double hi) {
  std::vector<double> values(static_cast<std::size_t>(numel_of(shape)));
  for (double& v : values) {
    if (dtype == DType::Bool)
      v = static_cast<double>(next_u64() & 1u);
    else if (dtype == DType::Int64)
      v = static_cast<double>(
          integer(static_cast<std::int64_t>(std::floor(lo)), static_cast<std::int64_t>(std::ceil(hi))));
    else if (dtype == DType::Float32)
      v = static_cast<double>(static_cast<float>(uniform(lo, hi)));
    else
      v = uniform(lo, hi);
  }
  return from_vector(values, shape, dtype);
}

Tensor SampleRng::strided_tensor(const Shape& shape, DType dtype, double lo, double hi) {
  if (shape.size() >= 2) {
    // The last two dims transposed: matrices stored column by column.
    Shape swapped = shape;
    std::swap(swapped[shape.size() - 1], swapped[shape.size() - 2]);
    const Tensor base = tensor(swapped, dtype, lo, hi);
    std::vector<std::int64_t> order(shape.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<std::int64_t>(i);
    std::swap(order[shape.size() - 1], order[shape.size() - 2]);
    return call_one("permute", {base}, {{"dims", order}});
  }
  if (shape.size() == 1) {
    const Tensor base = tensor({shape[0] * 2}, dtype, lo, hi);
    return call_one(
        "slice", {base},
        {{"dim", std::int64_t{0}}, {"start", std::int64_t{0}}, {"end", shape[0] * 2}, {"step", std::int64_t{2}}});
  }
  return tensor(shape, dtype, lo, hi);
}

const OpSampleRegistry& OpSampleRegistry::instance() { return mutable_instance(); }

OpSampleRegistry& OpSampleRegistry::mutable_instance() {
  static OpSampleRegistry* registry = [] {
    auto* r = new OpSampleRegistry();
    register_conversion_samples(*r);
    register_creation_samples(*r);
    register_unary_samples(*r);
    register_binary_samples(*r);
    register_reduce_samples(*r);
    register_linalg_samples(*r);
    register_distance_samples(*r);
    register_linalg_spectral_samples(*r);
    register_linalg_svd_samples(*r);
    register_linalg_lu_samples(*r);
    register_linalg_pinv_samples(*r);
    register_scan_samples(*r);
    register_view_samples(*r);
    register_view_copy_samples(*r);
    register_index_samples(*r);
    register_composite_samples(*r);
    register_activation_samples(*r);
    register_loss_samples(*r);
    register_dropout_samples(*r);
    register_convolution_samples(*r);
    register_pooling_samples(*r);
    register_attention_samples(*r);
    register_normalization_samples(*r);
    register_resampling_samples(*r);
    register_special_samples(*r);
    register_random_samples(*r);
    register_dynamic_samples(*r);
    register_custom_samples(*r);
    add_special_point_samples(*r);
    return r;
  }();
  return *registry;
}

const OpSampleSpec* OpSampleRegistry::find(const std::string& op) const {
  auto it = specs_.find(op);
  return it == specs_.end() ? nullptr : &it->second;
}

void register_op_samples(OpSampleSpec spec) { OpSampleRegistry::mutable_instance().add(std::move(spec)); }

void OpSampleRegistry::extend(const std::string& op, std::function<std::vector<OpSample>(DType floating)> extra) {
  auto it = specs_.find(op);
  FUNCSPEC_INTERNAL_ASSERT(it != specs_.end(), "samples extended for an op without samples");
  it->second.generate = [own = std::move(it->second.generate), extra = std::move(extra)](DType floating,
                                                                                         SampleRng& rng) {
    std::vector<OpSample> all = own(floating, rng);
    for (OpSample& s : extra(floating)) all.push_back(std::move(s));
    return all;
  };
}

void OpSampleRegistry::add(OpSampleSpec spec) {
  FUNCSPEC_INTERNAL_ASSERT(!specs_.contains(spec.op), "samples declared twice for one op");
  std::string name = spec.op;
  specs_.emplace(std::move(name), std::move(spec));
}

}  // namespace funcspec::samples
