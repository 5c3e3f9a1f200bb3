#pragma once
// functionalize(f, remove): f run without mutation (and, with remove='mutations_and_views', without
// aliasing), as torch.func.functionalize (docs/SPEC.md, FUNC; docs/functionalize.md). The
// functionalized function returns what f returns, and leaves f's arguments as f leaves them, but
// executes no in-place op while f runs: each write becomes the functional op that computes the
// written tensor's new value, and every alias of the written memory (views of it, the tensor it
// views) reads the new value from then on. The writes into f's arguments are made at the end, one
// copy_ per argument f mutated. NOTE: [functionalization] in functionalize.cpp says how.
#include <optional>
#include <string_view>

#include "reference/transforms/pytree.h"
#include "reference/transforms/vmap.h"

namespace funcspec::transforms {

enum class FunctionalizeRemove {
  Mutations,          // in-place ops (copy_, op_, out=) become functional ops; views stay views
  MutationsAndViews,  // and every view op becomes its copying twin (NOTE: [view copies])
};

// "mutations", "mutations_and_views": torch.func's spelling of `remove`.
std::string_view functionalize_remove_name(FunctionalizeRemove remove);
std::optional<FunctionalizeRemove> parse_functionalize_remove(std::string_view name);

PyFunction functionalize(PyFunction f, FunctionalizeRemove remove = FunctionalizeRemove::Mutations);
// `remove` by name; another name is invalid_argument.
PyFunction functionalize(PyFunction f, std::string_view remove);

// The alias group a tensor of a running functionalize level belongs to (its stand-in for a storage:
// a write through any member changes what every member reads), or nullptr for any other tensor.
const void* functional_alias_group(const Tensor& tensor);

}  // namespace funcspec::transforms
