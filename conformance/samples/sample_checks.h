#pragma once
// The catalogue-wide checks driven by op samples (NOTE: [op samples]). Each returns a verdict with
// a message precise enough to reproduce the failure (op, sample label, seed, element, values).
#include <string>
#include <vector>

#include "conformance/samples/op_samples.h"

namespace funcspec::samples {

struct SampleVerdict {
  std::string op;
  std::string check;  // "meta", "oracle-float64", "oracle-float32", "variant"
  int samples_run = 0;
  int error_samples = 0;      // samples where both sides raised the same error kind (agreement, but no values)
  double max_error_ulps = 0;  // largest error seen, logged even on a pass
  std::vector<std::string> failures;
  bool passed() const { return failures.empty(); }
};

// Every sample runs on meta and yields the same output shapes and dtypes as on cpu, or the same
// error kind; data-dependent ops must raise data_dependent_on_meta there.
SampleVerdict check_meta_agrees(const OpSampleSpec& spec, std::uint64_t seed);

// Every sample's result computed with `floating` (float64 or float32) inputs agrees with the
// result computed in the oracle dtype from the same values, within spec.tolerance. Samples that
// raise must raise the same kind on both sides; at least one sample must produce values, so a
// spec whose samples all fail cannot pass.
SampleVerdict check_oracle_agrees(const OpSampleSpec& spec, DType floating, std::uint64_t seed);

// The same sample inputs in another dtype: exact conversion of every floating input.
TensorList convert_floating_inputs(const TensorList& inputs, DType floating);

// Deep copies of the inputs (new storage, same geometry) so a sample can run twice from the same state.
TensorList clone_inputs(const TensorList& inputs);

}  // namespace funcspec::samples
