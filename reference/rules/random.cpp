// Transform rules of the random family. Batching follows vmap's randomness flag (NOTE: [vmap
// randomness]); 'error' never reaches a rule (the interpreter refuses first).
//  - 'same': one draw of the example's shape, shared by the batch (an unbatched result). An input
//    that shapes the draw may be batched; one that sets the distribution (bernoulli's p, normal's
//    mean and std, multinomial's weights) may not, since the examples would need different draws.
//  - 'different': the draw of the unbatched op over [B, *shape], batch at the front. Under
//    chunk_size, each chunk draws for the whole batch B and keeps its own rows, so chunks reproduce
//    the unchunked call exactly (the reference trades memory for that guarantee).
#include <fmt/format.h>

#include "reference/core/error.h"
#include "reference/ops/dispatch.h"
#include "reference/rules/batching_helpers.h"
#include "reference/transforms/op_rules.h"

namespace funcspec::transforms {

// NOTE: [vmap randomness]
// With a generator seeded with s, for vmap over B examples:
//   'same':      every example equals the unbatched call made with seed s;
//   'different': the result equals the unbatched call over [B, *shape] made with seed s (so the
//                examples differ), and nested vmaps give [B1, B2, *shape];
//   'error':     any random op raises vmap_randomness.
// Either way the generator advances as that one unbatched call advances it.
namespace {

using rules::batch_to_front;
using rules::materialize_batch;

// Rows [chunk_start, chunk_start + batch_size) of a draw made for the whole batch.
Tensor this_chunk(const Tensor& full, const BatchContext& context) {
  if (context.full_batch_size == context.batch_size) return full;
  return call_one(
      "slice", {full},
      {{"dim", std::int64_t{0}}, {"start", context.chunk_start}, {"end", context.chunk_start + context.batch_size}});
}

// An input as the whole batch would have it: this chunk's rows, with the rows of the other chunks
// filled by copies of this chunk's first row (their draws are discarded, and the ops' draws do not
// depend on the values, only on the shape).
Tensor whole_batch(const BatchedValue& input, const BatchContext& context) {
  const Tensor front = materialize_batch(input, context.batch_size);
  if (context.full_batch_size == context.batch_size) return front;
  auto filler = [&](std::int64_t rows) {
    Shape size = front.shape();
    size[0] = rows;
    const Tensor first =
        call_one("slice", {front}, {{"dim", std::int64_t{0}}, {"start", std::int64_t{0}}, {"end", std::int64_t{1}}});
    return call_one("expand", {first}, {{"size", std::vector<std::int64_t>(size.begin(), size.end())}});
  };
  TensorList parts;
  if (context.chunk_start > 0) parts.push_back(filler(context.chunk_start));
  parts.push_back(front);
  const std::int64_t after = context.full_batch_size - context.chunk_start - context.batch_size;
  if (after > 0) parts.push_back(filler(after));
  return call_one("cat", parts, {{"dim", std::int64_t{0}}});
}

// One example's shape, as a tensor to draw from (values unused).
Tensor example_template(const BatchedValue& input) {
  if (!input.batched()) return input.value;
  return call_one("select", {input.value}, {{"dim", *input.bdim}, {"index", std::int64_t{0}}});
}

[[noreturn]] void same_with_batched_distribution(const std::string& op, const std::string& argument) {
  fail(ErrorKind::VmapRandomness,
       "[{}] vmap(randomness='same') cannot share one draw across the batch when '{}', which sets the "
       "distribution, differs per example; use randomness='different'",
       op, argument);
}

// Ops whose tensor inputs only give the shape and dtype of the draw.
void add_shape_only_rule(RuleAttacher& attach, const std::string& op) {
  attach.batch(op, [op](const BatchedValues& in, const Attrs& attrs, const BatchContext& context) -> BatchedValues {
    if (context.randomness == Randomness::Same) {
      TensorList templates;
      for (const BatchedValue& input : in) templates.push_back(example_template(input));
      return {{call_one(op, templates, attrs), std::nullopt}};
    }
    TensorList whole;
    for (const BatchedValue& input : in) {
      BatchedValue shaped{example_template(input), std::nullopt};
      whole.push_back(materialize_batch(shaped, context.full_batch_size));
    }
    return {{this_chunk(call_one(op, whole, attrs), context), 0}};
  });
}

// Ops whose tensor inputs set the distribution.
void add_distribution_rule(RuleAttacher& attach, const std::string& op) {
  attach.batch(op, [op](const BatchedValues& in, const Attrs& attrs, const BatchContext& context) -> BatchedValues {
    if (context.randomness == Randomness::Same) {
      TensorList values;
      for (std::size_t i = 0; i < in.size(); ++i) {
        if (in[i].batched()) same_with_batched_distribution(op, fmt::format("input {}", i));
        values.push_back(in[i].value);
      }
      return {{call_one(op, values, attrs), std::nullopt}};
    }
    TensorList whole;
    for (const BatchedValue& input : in) whole.push_back(whole_batch(input, context));
    return {{this_chunk(call_one(op, whole, attrs), context), 0}};
  });
}

// Ops without tensor inputs: the draw's shape is the `size` attribute.
void add_sized_rule(RuleAttacher& attach, const std::string& op) {
  attach.batch(op, [op](const BatchedValues&, const Attrs& attrs, const BatchContext& context) -> BatchedValues {
    if (context.randomness == Randomness::Same) return {{call_one(op, {}, attrs), std::nullopt}};
    std::vector<std::int64_t> size{context.full_batch_size};
    for (std::int64_t s : attrs.get_int_list("size")) size.push_back(s);
    Attrs batched = attrs;
    batched.set("size", size);
    return {{this_chunk(call_one(op, {}, batched), context), 0}};
  });
}

}  // namespace

void register_random_rules(RuleAttacher& attach) {
  // Batching.
  for (const char* op : {"rand", "randn", "randint"}) add_sized_rule(attach, op);
  for (const char* op : {"uniform", "normal_functional", "exponential", "bernoulli.p"}) add_shape_only_rule(attach, op);
  for (const char* op : {"bernoulli", "normal", "multinomial"}) add_distribution_rule(attach, op);

  // Derivatives.
  // Draws carry no derivative, not even with respect to their distribution's parameters (normal's
  // mean and std, bernoulli's p), as PyTorch. The in-place draws decompose into these and copy_.
  for (const char* op : {"rand", "randn", "randint", "bernoulli", "bernoulli.p", "multinomial", "normal",
                         "normal_functional", "uniform", "exponential"}) {
    attach.non_differentiable(op);
  }
}

}  // namespace funcspec::transforms
