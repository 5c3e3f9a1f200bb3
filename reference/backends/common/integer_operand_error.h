#pragma once
// The invalid_argument error of an int64 operand that its binary function rejects
// (IntegerOperandRule, binary_fn.h), raised by the cpu kernel and by the CUDA backend's host glue
// from the element its check kernel finds, so both report it in the same words.
#include <cstdint>
#include <string_view>

#include "reference/backends/common/binary_fn.h"

namespace funcspec::common {

// `value` is the first element, in row-major order, that `rule` rejects; `op` names the op.
[[noreturn]] void raise_invalid_integer_operand(std::string_view op, IntegerOperandRule rule, std::int64_t value);

}  // namespace funcspec::common
