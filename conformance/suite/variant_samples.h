#pragma once
// Samples for the derived in-place (`add_`) and out= (`add.out`) variants (NOTE: [derived
// variants]): the functional op's samples, run through the variant. An in-place sample is the
// functional sample itself (self is written); an out= sample appends an `out` tensor of the
// functional result's dtype and shape. Samples whose result cannot be written into self (a
// promoted dtype, a broadcast beyond self's shape) stay: the variant must raise the specified kind.
#include <map>
#include <string>

#include "conformance/samples/op_samples.h"

namespace funcspec::conformance {

// The sample specs of every op a conformance run covers: the sample database's, plus one per
// derived variant (keyed by the variant's name, with its functional op's tolerance).
const std::map<std::string, samples::OpSampleSpec>& all_sample_specs();

}  // namespace funcspec::conformance
