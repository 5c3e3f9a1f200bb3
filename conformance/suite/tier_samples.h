#pragma once
// Which of an op's samples each generated family runs below the nightly tier. The first sample
// alone would leave an op's attribute variants (a threshold, a reduction mode, a norm order) and
// its special points to nightly, where a regression gate never looks; every sample would make the
// pr tier pay for every shape variant. So the pr tier takes the first sample of each distinct set
// of attributes, and every sample at a special point.
#include <cstddef>
#include <vector>

#include "conformance/samples/op_samples.h"

namespace funcspec::conformance {

// Indices into `samples`, ascending: sample 0, the first sample of each attribute set not seen
// before, and every sample with a special point.
std::vector<std::size_t> pr_sample_indices(const std::vector<samples::OpSample>& samples);

}  // namespace funcspec::conformance
