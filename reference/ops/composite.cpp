#include "reference/ops/registration.h"
#include "reference/ops/registry.h"

namespace funcspec {

void register_composite_ops(OpRegistry& registry) { (void)registry; }

}  // namespace funcspec
