#pragma once
// The cpu kernels' strided loop is the core's, funcspec::for_each_offset (core/strided_loop.h).
// This header keeps the name cpu::for_each_offset, which conformance/case/evaluate.cpp uses.
#include "reference/core/strided_loop.h"

namespace funcspec::cpu {
using funcspec::for_each_offset;
}  // namespace funcspec::cpu
