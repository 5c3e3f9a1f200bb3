#include "conformance/suite/tier_samples.h"

#include <algorithm>

namespace funcspec::conformance {

std::vector<std::size_t> pr_sample_indices(const std::vector<samples::OpSample>& samples) {
  std::vector<std::size_t> chosen;
  std::vector<const Attrs*> seen;
  for (std::size_t i = 0; i < samples.size(); ++i) {
    const Attrs& attrs = samples[i].attrs;
    const bool new_attributes =
        std::none_of(seen.begin(), seen.end(), [&](const Attrs* other) { return other->values() == attrs.values(); });
    if (new_attributes) seen.push_back(&attrs);
    if (new_attributes || !samples[i].special_point.empty()) chosen.push_back(i);
  }
  return chosen;
}

}  // namespace funcspec::conformance
