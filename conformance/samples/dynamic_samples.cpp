#include "conformance/samples/op_samples.h"

namespace funcspec::samples {

void register_dynamic_samples(OpSampleRegistry& registry) { (void)registry; }

}  // namespace funcspec::samples
