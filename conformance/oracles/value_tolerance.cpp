#include "conformance/oracles/value_tolerance.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace funcspec::conformance {
namespace {

double max_abs_floating_input(const TensorList& inputs) {
  double largest = 0;
  for (const Tensor& t : inputs) {
    if (!t.defined() || !is_floating(t.dtype()) || t.device() != Device::Cpu) continue;
    for (double v : t.to_vector<double>()) {
      if (std::isfinite(v)) largest = std::max(largest, std::abs(v));
    }
  }
  return largest;
}

double machine_epsilon(DType dtype) {
  return dtype == DType::Float32 ? static_cast<double>(std::numeric_limits<float>::epsilon())
                                 : std::numeric_limits<double>::epsilon();
}

}  // namespace

Tolerance value_tolerance(const samples::OracleTolerance& stated, DType dtype, const TensorList& inputs) {
  if (!is_floating(dtype)) return {};
  const double ulps = dtype == DType::Float32 ? stated.ulps32 : stated.ulps64;
  const double floor = std::max(stated.absolute_floor, stated.input_scale * max_abs_floating_input(inputs));
  if (ulps <= 0.5 && floor == 0) return {};
  const double eps = machine_epsilon(dtype);
  return Tolerance{ulps * eps * floor, (ulps + 0.5) * eps, 0};
}

}  // namespace funcspec::conformance
