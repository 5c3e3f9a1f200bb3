#include "reference/backends/common/integer_operand_error.h"

#include "reference/core/error.h"

namespace funcspec::common {

void raise_invalid_integer_operand(std::string_view op, IntegerOperandRule rule, std::int64_t value) {
  switch (rule) {
    case IntegerOperandRule::NonzeroDivisor: fail(ErrorKind::InvalidArgument, "[{}] integer division by zero", op);
    case IntegerOperandRule::NonnegativeExponent:
      fail(ErrorKind::InvalidArgument, "[{}] integers to negative integer powers are not allowed (exponent {})", op,
           value);
    case IntegerOperandRule::Any: break;
  }
  FUNCSPEC_UNREACHABLE("an integer operand that no rule rejects");
}

}  // namespace funcspec::common
