#include "conformance/oracles/loop_and_stack.h"

#include <fmt/format.h>

#include <stdexcept>

#include "reference/ops/dispatch.h"

namespace funcspec::oracles {
namespace {

std::int64_t example_count(const std::vector<BatchLevel>& levels) {
  std::int64_t count = 1;
  for (const BatchLevel& level : levels) count *= level.size;
  return count;
}

// [*the levels' sizes, *example]
Shape batched_shape(const std::vector<BatchLevel>& levels, const Shape& example) {
  Shape shape;
  for (const BatchLevel& level : levels) shape.push_back(level.size);
  shape.insert(shape.end(), example.begin(), example.end());
  return shape;
}

// Examples stacked along a new dim 0, split into one dim per level.
Tensor stacked_by_level(const TensorList& examples, const std::vector<BatchLevel>& levels) {
  Tensor stacked = call_one("stack", examples, {{"dim", std::int64_t{0}}});
  if (levels.size() < 2) return stacked;
  const Shape example(stacked.shape().begin() + 1, stacked.shape().end());
  const Shape shape = batched_shape(levels, example);
  return call_one("reshape", {stacked}, {{"shape", std::vector<std::int64_t>(shape.begin(), shape.end())}});
}

}  // namespace

Tensor place_batch_dims(const Tensor& stacked, const std::vector<BatchLevel>& levels) {
  const auto count = static_cast<std::int64_t>(levels.size());
  const std::int64_t example_rank = stacked.dim() - count;
  // Innermost level first: its dim moves among the dims its level sees, which the outer levels'
  // dims (still in front) precede.
  Tensor placed = stacked;
  for (std::int64_t l = count - 1; l >= 0; --l) {
    const std::int64_t seen_rank = example_rank + (count - l);
    const std::int64_t dim = levels[static_cast<std::size_t>(l)].dim;
    const std::int64_t position = dim < 0 ? dim + seen_rank : dim;
    if (position != 0) placed = call_one("movedim", {placed}, {{"source", l}, {"destination", l + position}});
  }
  return placed;
}

Tensor batch_of(const TensorList& examples, const Tensor& like, const std::vector<BatchLevel>& levels) {
  if (static_cast<std::int64_t>(examples.size()) != example_count(levels))
    throw std::invalid_argument(
        fmt::format("a batch of {} examples for levels of {} examples", examples.size(), example_count(levels)));
  if (!examples.empty()) return place_batch_dims(stacked_by_level(examples, levels), levels);
  Tensor empty = call_one("unsqueeze", {like}, {{"dim", std::int64_t{0}}});
  empty = call_one("slice", {empty}, {{"dim", std::int64_t{0}}, {"start", std::int64_t{0}}, {"end", std::int64_t{0}}});
  if (levels.size() > 1) {
    const Shape shape = batched_shape(levels, like.shape());
    empty = call_one("reshape", {empty}, {{"shape", std::vector<std::int64_t>(shape.begin(), shape.end())}});
  }
  return place_batch_dims(empty, levels);
}

LoopAndStack loop_and_stack(const std::vector<BatchLevel>& levels, const ExampleResults& example,
                            const ExampleShapes& shapes_of_an_example) {
  const std::int64_t count = example_count(levels);
  std::vector<TensorList> per_result;  // per_result[k][e]: result k of example e
  TensorList stacked;
  try {
    if (count == 0) {
      if (!shapes_of_an_example) throw std::logic_error("an empty batch, and no example to take its shapes from");
      for (const Tensor& r : shapes_of_an_example())
        stacked.push_back(Tensor::empty(batched_shape(levels, r.shape()), r.dtype()));
    }
    for (std::int64_t e = 0; e < count; ++e) {
      TensorList results = example(e);
      if (e == 0) per_result.resize(results.size());
      if (results.size() != per_result.size())
        throw std::logic_error(fmt::format("example {} returned {} results where example 0 returned {}", e,
                                           results.size(), per_result.size()));
      for (std::size_t k = 0; k < results.size(); ++k) per_result[k].push_back(std::move(results[k]));
    }
  } catch (const Error& e) {
    return {{}, e};
  }
  for (const TensorList& slices : per_result) stacked.push_back(stacked_by_level(slices, levels));
  LoopAndStack out;
  for (const Tensor& s : stacked) out.results.push_back(place_batch_dims(s, levels));
  return out;
}

}  // namespace funcspec::oracles
