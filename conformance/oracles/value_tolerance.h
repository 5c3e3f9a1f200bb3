#pragma once
// An op's stated accuracy (NOTE: [op samples]) as the tolerance of a case whose expected values
// the reference computed: the op value cases (OPS-VALUES), the AD checks and VMAP-ORACLE hold a
// backend's results to what the catalogue states the op achieves.
#include "conformance/case/case.h"
#include "conformance/samples/op_samples.h"
#include "reference/core/tensor.h"

namespace funcspec::conformance {

// The op's stated tolerance as a case tolerance against the oracle value rounded to `dtype`, for
// results computed from `inputs`. The stated bound is |got - oracle| <= ulps * eps * max(|oracle|,
// F) with F = max(floor, input_scale * max|input|); rounding the oracle adds at most eps/2 *
// |oracle|, hence rtol = (ulps + 1/2) * eps and atol = ulps * eps * F; a subnormal result may also
// lie floor(ulps) whole ulps away (its spacing exceeds eps * |result|). A correctly rounded op
// (ulps <= 1/2, no floor) must match the rounded oracle exactly, as must every non-floating result.
Tolerance value_tolerance(const samples::OracleTolerance& stated, DType dtype, const TensorList& inputs);

}  // namespace funcspec::conformance
