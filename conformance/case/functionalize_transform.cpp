#include "conformance/case/functionalize_transform.h"

#include "reference/transforms/functionalize.h"

namespace funcspec::conformance {

transforms::PyFunction apply_functionalize(transforms::PyFunction f, const FunctionalizeTransform& transform) {
  // The case reader has checked `remove`; the engine checks it again (invalid_argument).
  return transforms::functionalize(std::move(f), transform.remove);
}

}  // namespace funcspec::conformance
