#include "conformance/samples/op_samples.h"

namespace funcspec::samples {

void register_view_samples(OpSampleRegistry& registry) { (void)registry; }

}  // namespace funcspec::samples
