#include "reference/transforms/vmap.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "reference/ops/dispatch.h"
#include "reference/random/generator.h"
#include "reference/transforms/vmap_interpreter.h"

namespace funcspec::transforms {

// NOTE: [vmap semantics]
// vmap(f, in_dims, out_dims)(args) equals stacking f(example b of args) for b in [0, B) along
// out_dims, where example b takes index b of every mapped argument along its in_dim and passes
// unmapped arguments (in_dim None, and every non-tensor) unchanged. Concretely:
//  - in_dims is a prefix of the argument tuple; each mapped leaf must be a tensor, its dim in
//    [-rank, rank), and all mapped sizes equal (that size is B, and B may be 0 or 1). At least one
//    argument is mapped.
//  - f runs once, on wrappers (NOTE: [batched tensors]); a result not batched at this level is the
//    same for every example and is expanded to size B at its out_dim; out_dim None returns a result
//    as is, and is only allowed for results that are not batched (or are not tensors).
//  - chunk_size c computes the examples c at a time (f runs ceil(B/c) times) with the same results
//    as one call, random draws included (NOTE: [vmap randomness]).
namespace {

std::vector<std::string> leaf_paths(const PyTree& tree, const std::string& prefix) {
  if (tree.is_leaf()) return {prefix};
  std::vector<std::string> out;
  for (std::size_t i = 0; i < tree.children().size(); ++i) {
    const std::string child = tree.kind() == PyTree::Kind::Dict ? fmt::format("{}['{}']", prefix, tree.keys()[i])
                                                                : fmt::format("{}[{}]", prefix, i);
    for (std::string& p : leaf_paths(tree.children()[i], child)) out.push_back(std::move(p));
  }
  return out;
}

struct MappedArguments {
  std::vector<PyTree> leaves;
  std::vector<std::optional<std::int64_t>> dims;  // wrapped to [0, rank)
  std::int64_t batch_size = 0;
};

MappedArguments map_arguments(const std::vector<PyTree>& args, const PyTree& in_dims) {
  const PyTree arguments = PyTree::tuple(args);
  MappedArguments mapped;
  mapped.leaves = arguments.leaves();
  mapped.dims = broadcast_dims(in_dims, arguments, "in_dims", ErrorKind::VmapInvalidDims);
  const std::vector<std::string> paths = leaf_paths(arguments, "args");
  std::vector<std::string> sizes;
  std::optional<std::int64_t> batch_size;
  bool sizes_differ = false;
  for (std::size_t i = 0; i < mapped.leaves.size(); ++i) {
    std::optional<std::int64_t>& dim = mapped.dims[i];
    if (!dim) continue;
    const PyTree& leaf = mapped.leaves[i];
    FUNCSPEC_CHECK(leaf.is_tensor(), ErrorKind::VmapInvalidDims,
                   "[vmap] in_dim {} was given for {}, which is {}; only tensors can be mapped (use None)", *dim,
                   paths[i], leaf.describe());
    const std::int64_t rank = leaf.tensor().dim();
    FUNCSPEC_CHECK(*dim >= -rank && *dim < rank, ErrorKind::VmapInvalidDims,
                   "[vmap] in_dim {} is out of range for {} of rank {} (expected a dim in [{}, {}))", *dim, paths[i],
                   rank, -rank, rank);
    if (*dim < 0) *dim += rank;
    const std::int64_t size = leaf.tensor().shape()[static_cast<std::size_t>(*dim)];
    sizes.push_back(fmt::format("{} has size {} at dim {}", paths[i], size, *dim));
    if (batch_size && *batch_size != size) sizes_differ = true;
    batch_size = batch_size.value_or(size);
  }
  FUNCSPEC_CHECK(batch_size.has_value(), ErrorKind::VmapInvalidDims,
                 "[vmap] no argument is mapped (in_dims {} over {}); map at least one tensor", in_dims.describe(),
                 arguments.describe());
  FUNCSPEC_CHECK(!sizes_differ, ErrorKind::VmapBatchSizeMismatch,
                 "[vmap] the mapped arguments disagree on the batch size: {}", fmt::join(sizes, "; "));
  mapped.batch_size = *batch_size;
  return mapped;
}

// One call of f on examples [start, start + length) of the mapped arguments.
PyTree run_batch(const PyFunction& f, const std::vector<PyTree>& args, const MappedArguments& mapped,
                 const VmapOptions& options, std::int64_t start, std::int64_t length) {
  auto interpreter =
      std::make_shared<VmapInterpreter>(BatchContext{length, options.randomness, mapped.batch_size, start});
  std::vector<PyTree> wrapped;
  {
    InterpreterGuard guard(interpreter);
    for (std::size_t i = 0; i < mapped.leaves.size(); ++i) {
      const std::optional<std::int64_t>& dim = mapped.dims[i];
      if (!dim) {
        wrapped.push_back(mapped.leaves[i]);
        continue;
      }
      Tensor value = mapped.leaves[i].tensor();
      if (start != 0 || length != mapped.batch_size)
        value = call_one("slice", {value}, {{"dim", *dim}, {"start", start}, {"end", start + length}});
      wrapped.push_back(PyTree(make_batched(value, dim, interpreter->level())));
    }
    const std::vector<PyTree> call_args = PyTree::tuple(args).with_leaves(wrapped).children();
    const PyTree result = f(call_args);

    // Out of the level: each result leaf becomes a plain (or outer-level) tensor.
    const std::vector<PyTree> leaves = result.leaves();
    const std::vector<std::optional<std::int64_t>> out_dims =
        broadcast_dims(options.out_dims, result, "out_dims", ErrorKind::VmapInvalidDims);
    const std::vector<std::string> paths = leaf_paths(result, "result");
    std::vector<PyTree> unwrapped;
    for (std::size_t i = 0; i < leaves.size(); ++i) {
      const std::optional<std::int64_t>& out_dim = out_dims[i];
      if (!leaves[i].is_tensor()) {
        FUNCSPEC_CHECK(!out_dim, ErrorKind::VmapNonTensorOutput,
                       "[vmap] the function returned {} at {} where out_dim {} asks for a batched tensor; return "
                       "tensors, or give that result out_dim None",
                       leaves[i].describe(), paths[i], out_dim.value_or(0));
        unwrapped.push_back(leaves[i]);
        continue;
      }
      const BatchedValue out = unwrap_batched(leaves[i].tensor(), interpreter->level());
      if (!out_dim) {
        FUNCSPEC_CHECK(!out.batched(), ErrorKind::VmapInvalidDims,
                       "[vmap] out_dim None was given for {}, which differs between the examples; give it an int "
                       "out_dim",
                       paths[i]);
        unwrapped.push_back(PyTree(out.value));
        continue;
      }
      const std::int64_t rank = out.logical_rank() + 1;
      FUNCSPEC_CHECK(*out_dim >= -rank && *out_dim < rank, ErrorKind::VmapInvalidDims,
                     "[vmap] out_dim {} is out of range for {} of rank {} with its batch dim (expected [{}, {}))",
                     *out_dim, paths[i], rank - 1, -rank, rank);
      const std::int64_t target = *out_dim < 0 ? *out_dim + rank : *out_dim;
      LowerScope lower(*interpreter);
      Tensor value = out.value;
      std::int64_t bdim = out.bdim.value_or(0);
      if (!out.batched()) {
        // The same for every example: one copy per example, expanded (no copy of the values).
        value = call_one("unsqueeze", {value}, {{"dim", 0}});
        Shape expanded = value.shape();
        expanded[0] = length;
        value = call_one("expand", {value}, {{"size", std::vector<std::int64_t>(expanded.begin(), expanded.end())}});
      }
      if (bdim != target) value = call_one("movedim", {value}, {{"source", bdim}, {"destination", target}});
      unwrapped.push_back(PyTree(value));
    }
    return result.with_leaves(unwrapped);
  }
}

}  // namespace

PyFunction vmap(PyFunction f, VmapOptions options) {
  return [f = std::move(f), options](const std::vector<PyTree>& args) -> PyTree {
    FUNCSPEC_CHECK(!options.chunk_size || *options.chunk_size >= 1, ErrorKind::InvalidArgument,
                   "[vmap] chunk_size must be at least 1 or None, got {}", options.chunk_size.value_or(0));
    const MappedArguments mapped = map_arguments(args, options.in_dims);
    const std::int64_t chunk = options.chunk_size.value_or(mapped.batch_size);
    if (chunk >= mapped.batch_size) return run_batch(f, args, mapped, options, 0, mapped.batch_size);

    // Every chunk replays the generator from the same offset and draws what the unchunked call
    // draws (NOTE: [vmap randomness]); afterwards the generator is where the unchunked call leaves it.
    random::Generator& generator = random::current_generator();
    const std::uint64_t start_offset = generator.offset();
    std::uint64_t end_offset = start_offset;
    std::vector<PyTree> pieces;
    for (std::int64_t start = 0; start < mapped.batch_size; start += chunk) {
      generator.set_offset(start_offset);
      pieces.push_back(run_batch(f, args, mapped, options, start, std::min(chunk, mapped.batch_size - start)));
      end_offset = generator.offset();
    }
    generator.set_offset(end_offset);
    // Join the chunks leaf by leaf along each result's out_dim.
    const std::vector<std::optional<std::int64_t>> out_dims =
        broadcast_dims(options.out_dims, pieces.front(), "out_dims", ErrorKind::VmapInvalidDims);
    std::vector<PyTree> joined;
    const std::size_t leaf_count = pieces.front().leaf_count();
    std::vector<std::vector<PyTree>> leaves_of;
    for (const PyTree& piece : pieces) leaves_of.push_back(piece.leaves());
    for (std::size_t i = 0; i < leaf_count; ++i) {
      if (!out_dims[i] || !leaves_of.front()[i].is_tensor()) {
        joined.push_back(leaves_of.front()[i]);
        continue;
      }
      TensorList parts;
      for (const std::vector<PyTree>& leaves : leaves_of) parts.push_back(leaves[i].tensor());
      joined.push_back(PyTree(call_one("cat", parts, {{"dim", *out_dims[i]}})));
    }
    return pieces.front().with_leaves(joined);
  };
}

}  // namespace funcspec::transforms
