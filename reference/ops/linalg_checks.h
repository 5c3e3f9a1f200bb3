#pragma once
// Argument checks the linalg ops share (linalg.cpp and the linalg_*.cpp families).
#include <string_view>

#include "reference/core/tensor.h"

namespace funcspec {

// `a` is a floating [*, n, n] tensor; else dtype_not_supported or shape_mismatch naming `op` and `arg`.
void check_square_floating(std::string_view op, std::string_view arg, const Tensor& a);

}  // namespace funcspec
