#pragma once
// The binary elementwise and comparison functions, shared by the cpu and CUDA backends (plain
// C++17, so the CUDA launchers take them too).
//
// Adding a function: its value here and its case in integer_operand_rule, and its functor and its
// case (which names its domain) in visit_binary_fn or visit_compare_fn (binary_functors.h), with
// its scalar math in binary_math.h if it is new. Both backends' kernels dispatch through those, so
// nothing in cpu/ or cuda/ changes; a value without its cases does not compile. The op that uses it
// is declared in reference/ops/binary.cpp.
#include <cstdint>

#include "reference/core/host_device.h"

namespace funcspec::common {

enum class BinaryFn {
  Add,
  Sub,
  Mul,
  Div,
  DivTrunc,
  DivFloor,
  Pow,
  Maximum,
  Minimum,
  Atan2,
  Remainder,
  // The special-function family (docs/ops/special.md): floating only.
  Xlogy,
  Xlog1py,
  Hypot,
  Copysign,
  // The stats family (docs/ops/binary.md): floating only.
  Logaddexp,
  Logaddexp2,
};

enum class CompareFn { Eq, Ne, Lt, Le, Gt, Ge, LogicalAnd, LogicalOr };

// What an int64 function requires of every element of its second operand. The values depend on
// the data, so both backends check all of the operand before writing anything and raise the same
// error (integer_operand_error.h).
enum class IntegerOperandRule {
  Any,
  NonzeroDivisor,       // integer division and remainder
  NonnegativeExponent,  // an integer to a negative integer power is not an integer
};

constexpr IntegerOperandRule integer_operand_rule(BinaryFn fn) {
  switch (fn) {
    case BinaryFn::DivTrunc:
    case BinaryFn::DivFloor:
    case BinaryFn::Remainder: return IntegerOperandRule::NonzeroDivisor;
    case BinaryFn::Pow: return IntegerOperandRule::NonnegativeExponent;
    case BinaryFn::Add:
    case BinaryFn::Sub:
    case BinaryFn::Mul:
    case BinaryFn::Div:  // true division computes in a floating dtype
    case BinaryFn::Maximum:
    case BinaryFn::Minimum:
    case BinaryFn::Atan2:
    case BinaryFn::Xlogy:
    case BinaryFn::Xlog1py:
    case BinaryFn::Hypot:
    case BinaryFn::Copysign:
    case BinaryFn::Logaddexp:
    case BinaryFn::Logaddexp2: return IntegerOperandRule::Any;
  }
  return IntegerOperandRule::Any;  // not a BinaryFn
}

FUNCSPEC_HOST_DEVICE constexpr bool rejects(IntegerOperandRule rule, std::int64_t value) {
  switch (rule) {
    case IntegerOperandRule::Any: return false;
    case IntegerOperandRule::NonzeroDivisor: return value == 0;
    case IntegerOperandRule::NonnegativeExponent: return value < 0;
  }
  return false;  // not an IntegerOperandRule
}

}  // namespace funcspec::common
