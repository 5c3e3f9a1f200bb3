#pragma once
// The `functionalize` transform of a case (docs/case-format.md, Transforms) on the reference engine.
#include "conformance/case/case.h"
#include "reference/transforms/vmap.h"

namespace funcspec::conformance {

// `f` functionalized as the transform asks. The results keep their names: a case observes the
// functionalized program through its outputs, and an output that names an input reads that input's
// final value as the program sees it (a case cannot read its inputs after the call, so the write of
// each mutated input back into the caller's tensor is checked by engine tests and PROP-FUNC
// properties, not by cases).
transforms::PyFunction apply_functionalize(transforms::PyFunction f, const FunctionalizeTransform& transform);

}  // namespace funcspec::conformance
