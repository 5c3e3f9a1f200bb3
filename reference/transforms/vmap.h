#pragma once
// vmap(f, in_dims, out_dims, randomness, chunk_size): f mapped over a dim of its inputs, as
// torch.func.vmap (docs/SPEC.md, VMAP). NOTE: [vmap semantics] in vmap.cpp states the rules.
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "reference/transforms/batch_rules.h"
#include "reference/transforms/pytree.h"

namespace funcspec::transforms {

using PyFunction = std::function<PyTree(const std::vector<PyTree>& args)>;

struct VmapOptions {
  PyTree in_dims = PyTree(0);   // a prefix of the argument tuple: int (negative from the end) or None
  PyTree out_dims = PyTree(0);  // a prefix of the result
  Randomness randomness = Randomness::Error;
  std::optional<std::int64_t> chunk_size;  // at most this many examples at a time; same results
};

PyFunction vmap(PyFunction f, VmapOptions options = {});

}  // namespace funcspec::transforms
