#pragma once
// The in-place properties (inplace_properties.cpp) as their tests need them: the engine-only law
// run on a vmap of the test's choosing.
#include <functional>

#include "property_tests/property.h"
#include "reference/transforms/vmap.h"

namespace funcspec::properties {

// A vmap implementation: the reference's transforms::vmap, or a test's mutant of it.
using VmapFunction = std::function<transforms::PyFunction(transforms::PyFunction, transforms::VmapOptions)>;

// PROP-INPLACE/error-writes-nothing, checked on `vmap`.
PropertyDef inplace_error_writes_nothing_property(VmapFunction vmap);

}  // namespace funcspec::properties
