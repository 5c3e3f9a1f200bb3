#pragma once
// The binary elementwise and comparison functions, shared by the cpu and CUDA backends (plain
// C++17, so the CUDA launchers take them too).

namespace funcspec::common {

enum class BinaryFn { Add, Sub, Mul, Div, DivTrunc, DivFloor, Pow, Maximum, Minimum, Atan2, Remainder };

enum class CompareFn { Eq, Ne, Lt, Le, Gt, Ge, LogicalAnd, LogicalOr };

}  // namespace funcspec::common
