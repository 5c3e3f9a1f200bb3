#include "conformance/oracles/value_tolerance.h"

namespace funcspec::conformance {

Tolerance value_tolerance(const samples::OracleTolerance& stated, DType dtype, const TensorList& inputs) {
  if (!is_floating(dtype)) return {};
  const double ulps = dtype == DType::Float32 ? stated.ulps32 : stated.ulps64;
  const double floor = stated.magnitude_floor(inputs);
  if (ulps <= 0.5 && floor == 0) return {};
  const double eps = samples::machine_epsilon(dtype);
  return Tolerance{ulps * eps * floor, (ulps + 0.5) * eps, 0};
}

}  // namespace funcspec::conformance
