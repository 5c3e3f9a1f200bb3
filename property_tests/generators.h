#pragma once
// RapidCheck generators: shapes, dtypes and strided layouts for the tensor core, and pytree
// structures with in_dims/out_dims that fit them for vmap. Whole programs and transform stacks have
// their own generators (program_generator.h, transform_stack.h). Everything shrinks towards small
// ranks, small sizes, contiguous layouts, flat structures and dim 0, so counterexamples come out
// readable.
#include <rapidcheck.h>

#include <algorithm>
#include <numeric>
#include <optional>
#include <vector>

#include "reference/core/tensor.h"
#include "reference/transforms/pytree.h"

namespace funcspec::properties {

// A shape of rank 0..5 with sizes 0..4 (0 and 1 included on purpose: they are where bugs live).
inline rc::Gen<Shape> gen_shape(int max_rank = 5, int max_size = 4) {
  return rc::gen::mapcat(rc::gen::inRange(0, max_rank + 1), [max_size](int rank) {
    return rc::gen::container<Shape>(static_cast<std::size_t>(rank), rc::gen::inRange<std::int64_t>(0, max_size + 1));
  });
}

// Two shapes that broadcast: the second is the first with some dims set to 1 and a prefix dropped.
inline rc::Gen<std::pair<Shape, Shape>> gen_broadcastable_pair() {
  return rc::gen::mapcat(gen_shape(), [](const Shape& full) {
    return rc::gen::map(rc::gen::pair(rc::gen::container<std::vector<bool>>(full.size(), rc::gen::arbitrary<bool>()),
                                      rc::gen::inRange<std::size_t>(0, full.size() + 1)),
                        [full](const std::pair<std::vector<bool>, std::size_t>& choice) {
                          Shape other(full.begin() + static_cast<std::ptrdiff_t>(choice.second), full.end());
                          for (std::size_t i = 0; i < other.size(); ++i) {
                            if (choice.first[i + choice.second]) other[i] = 1;
                          }
                          return std::make_pair(full, other);
                        });
  });
}

inline rc::Gen<DType> gen_dtype() {
  return rc::gen::element(DType::Bool, DType::Int64, DType::Float32, DType::Float64);
}

// A permutation of 0..rank-1.
inline rc::Gen<std::vector<std::int64_t>> gen_permutation(std::size_t rank) {
  std::vector<std::int64_t> identity(rank);
  std::iota(identity.begin(), identity.end(), 0);
  return rc::gen::map(rc::gen::container<std::vector<int>>(rank, rc::gen::arbitrary<int>()),
                      [identity](const std::vector<int>& keys) {
                        std::vector<std::int64_t> order = identity;
                        std::stable_sort(order.begin(), order.end(), [&](std::int64_t a, std::int64_t b) {
                          return keys[static_cast<std::size_t>(a)] < keys[static_cast<std::size_t>(b)];
                        });
                        return order;
                      });
}

// A tensor of `shape` whose storage is laid out in a random dim order (a permuted view of a
// contiguous buffer), filled with small integers so every dtype represents them exactly.
inline rc::Gen<Tensor> gen_strided_tensor(const Shape& shape, DType dtype) {
  return rc::gen::map(gen_permutation(shape.size()), [shape, dtype](const std::vector<std::int64_t>& order) {
    Shape stored(shape.size());
    for (std::size_t i = 0; i < order.size(); ++i) stored[i] = shape[static_cast<std::size_t>(order[i])];
    std::vector<double> values(static_cast<std::size_t>(numel_of(stored)));
    for (std::size_t i = 0; i < values.size(); ++i)
      values[i] = static_cast<double>((i * 7 + 3) % 5) - (dtype == DType::Bool ? 3.0 : 2.0);
    const Tensor base = from_vector(values, stored, dtype);
    Strides strides(shape.size());
    for (std::size_t i = 0; i < order.size(); ++i) strides[static_cast<std::size_t>(order[i])] = base.strides()[i];
    return Tensor::view_of(base, shape, strides, 0);
  });
}

// --- Batch dims ---

// Choice `pick` among the 2 * (rank + 1) dims a batch dim may take beside an example of rank `rank`:
// 0..rank, then -1..-(rank + 1). Pick 0 is dim 0, so a shrunk choice is vmap's default.
std::int64_t batch_dim_choice(unsigned pick, std::int64_t rank);

// --- Pytrees ---

// The arguments of a function over `leaves` leaves, in order, grouped into nested tuples, lists and
// dicts (keys "a", "b", ...) at most `max_depth` containers deep: a tuple of the arguments whose
// leaves are placeholders (None), to be filled with PyTree::with_leaves. Shrinks to one leaf per
// argument, the flat signature of a case.
rc::Gen<transforms::PyTree> gen_argument_structure(std::size_t leaves, int max_depth = 2);
// A structure of `leaves` leaves for a function's result: one leaf alone, or a nested container.
rc::Gen<transforms::PyTree> gen_result_structure(std::size_t leaves, int max_depth = 2);

// A prefix of `structure` (NOTE: [pytrees]) giving each leaf a dim: either one option for a whole
// subtree or one per child, and at the leaves an int in [-(rank + 1), rank] (`ranks`: the unbatched
// rank of each leaf of `structure`, in order; nullopt for a non-tensor leaf, which only None may
// map) or, where `allow_none`, None. Ints shrink to 0; a draw that maps nothing maps the first
// tensor leaf at 0.
rc::Gen<transforms::PyTree> gen_dims_prefix(const transforms::PyTree& structure,
                                            const std::vector<std::optional<std::int64_t>>& ranks, bool allow_none);

}  // namespace funcspec::properties

namespace rc {

template <>
struct Arbitrary<funcspec::DType> {
  static Gen<funcspec::DType> arbitrary() { return funcspec::properties::gen_dtype(); }
};

}  // namespace rc
