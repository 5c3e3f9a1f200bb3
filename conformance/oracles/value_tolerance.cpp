#include "conformance/oracles/value_tolerance.h"

#include <cmath>

namespace funcspec::conformance {

Tolerance value_tolerance(const samples::OracleTolerance& stated, DType dtype, const TensorList& inputs) {
  if (!is_floating(dtype)) return {};
  const double ulps = dtype == DType::Float32 ? stated.ulps32 : stated.ulps64;
  const double floor = stated.magnitude_floor(inputs);
  if (ulps <= 0.5 && floor == 0) return {};
  const double eps = samples::machine_epsilon(dtype);
  // A subnormal result's spacing is coarser than eps * |result|, so there the stated ulps count in
  // units of that spacing: whole ulps of the result dtype. For a normal result floor(ulps) ulps is
  // never more than the relative bound, so this loosens nothing above the subnormal range.
  const auto whole_ulps = static_cast<std::int64_t>(std::floor(ulps));
  return Tolerance{ulps * eps * floor, (ulps + 0.5) * eps, whole_ulps};
}

}  // namespace funcspec::conformance
