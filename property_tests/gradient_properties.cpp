// Being written: registers no property yet.
#include "property_tests/property.h"

namespace funcspec::properties {

void add_gradient_properties(std::vector<PropertyDef>&, const ProgramOptions&) {}

}  // namespace funcspec::properties
