// Being written: registers no property yet.
#include "property_tests/property.h"

namespace funcspec::properties {

void add_randomness_properties(std::vector<PropertyDef>&) {}

}  // namespace funcspec::properties
