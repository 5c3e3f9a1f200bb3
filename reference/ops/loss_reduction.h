#pragma once
// The `reduction` attribute every loss takes (docs/ops/loss.md): 'none' keeps the per-element
// losses, 'sum' adds them, 'mean' divides that sum by a denominator (the number of elements, or the
// summed weights of the kept targets for the class-index losses).
#include <string_view>

#include "reference/core/error.h"
#include "reference/ops/attrs.h"
#include "reference/ops/dispatch.h"

namespace funcspec {

enum class Reduction { None, Mean, Sum };

inline Reduction parse_reduction(std::string_view op, const Attrs& attrs) {
  const std::string& r = attrs.get_string("reduction");
  if (r == "none") return Reduction::None;
  if (r == "mean") return Reduction::Mean;
  if (r == "sum") return Reduction::Sum;
  fail(ErrorKind::InvalidArgument, "[{}] reduction must be 'none', 'mean' or 'sum' but is '{}'", op, r);
}

// 'mean' divides by `mean_denominator` when it is given and by the number of elements (the op
// `mean`, NaN for none) when it is not.
inline Tensor reduce_loss(Reduction reduction, const Tensor& losses, const Tensor& mean_denominator = Tensor()) {
  switch (reduction) {
    case Reduction::None: return losses;
    case Reduction::Sum: return call_one("sum", {losses});
    case Reduction::Mean:
      if (!mean_denominator.defined()) return call_one("mean", {losses});
      return call_one("div", {call_one("sum", {losses}), mean_denominator});
  }
  FUNCSPEC_UNREACHABLE("unknown reduction");
}

}  // namespace funcspec
