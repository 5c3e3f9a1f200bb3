#pragma once
// NOTE: [wrapper walk]
// Some questions about a tensor reach through every transform's wrappers (NOTE: [transform
// payloads]), whatever transforms are stacked: which memory its values live in (a reverse-mode
// tape copies the constants it saved before an in-place write into that memory; functionalize
// tells arguments that share memory apart), and whether it carries a wrapper of some kind at any
// depth (the composite-compliance check refuses out= on anything that carries a checked tensor).
// They are answered here, through each payload's own account of what it wraps, and nowhere else:
// a new kind of wrapper is seen through by every such question as soon as its payload says what it
// wraps.
//
// The walk visits a tensor's payload, then, depth first, the tensor holding the values it shows,
// then what else it carries (a dual's primal, then its tangent). A wrapper's memory is its own
// where it stands for memory (functionalize's alias group), else that of the tensor holding its
// values; a linear variable and a meta tensor have none.
#include <functional>

#include "reference/core/tensor.h"

namespace funcspec {

// The memory `tensor`'s values live in, seen through every wrapper: a storage, or a stand-in for one
// (functionalize's alias group); nullptr where there is none. Two tensors with the same memory may
// alias; two with different memory never do.
const void* memory_identity(const Tensor& tensor);

// The first payload, in walk order, that `match` accepts: `tensor`'s own, or one of a tensor it
// wraps at any depth; nullptr when none does.
const TransformPayload* find_wrapper(const Tensor& tensor, const std::function<bool(const TransformPayload&)>& match);

}  // namespace funcspec
