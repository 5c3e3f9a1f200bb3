#include "reference/core/promotion.h"

#include <algorithm>
#include <optional>

namespace funcspec {
namespace {

enum class Category { Bool, Integer, Floating };

Category category_of(DType d) {
  if (d == DType::Bool) return Category::Bool;
  if (is_integral(d)) return Category::Integer;
  return Category::Floating;
}

std::optional<DType> promote_optional(std::optional<DType> a, DType b) { return a ? promote_types(*a, b) : b; }

// The result of a higher-priority class given what a lower one asks for (see NOTE: [type promotion]).
std::optional<DType> combine_classes(std::optional<DType> higher, std::optional<DType> lower) {
  if (!higher) return lower;
  if (!lower) return higher;
  if (category_of(*lower) > category_of(*higher)) return promote_types(*higher, *lower);
  return higher;
}

}  // namespace

DType promote_types(DType a, DType b) { return promotion_rank(a) >= promotion_rank(b) ? a : b; }

DType result_type(std::span<const Tensor> operands) {
  std::optional<DType> dimensioned, zero_dim, wrapped;
  for (const Tensor& t : operands) {
    if (!t.defined()) continue;
    if (t.is_wrapped_number()) {
      // A float literal counts as the default float dtype, not as the double it is stored in.
      wrapped = promote_optional(wrapped, is_floating(t.dtype()) ? kDefaultFloat : t.dtype());
    } else if (t.dim() == 0) {
      zero_dim = promote_optional(zero_dim, t.dtype());
    } else {
      dimensioned = promote_optional(dimensioned, t.dtype());
    }
  }
  const std::optional<DType> result = combine_classes(dimensioned, combine_classes(zero_dim, wrapped));
  FUNCSPEC_INTERNAL_ASSERT(result.has_value(), "result_type of no operands");
  return *result;
}

bool can_cast(DType from, DType to) { return category_of(from) <= category_of(to); }

}  // namespace funcspec
