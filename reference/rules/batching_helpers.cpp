#include "reference/rules/batching_helpers.h"

#include "reference/core/error.h"
#include "reference/core/shape.h"
#include "reference/ops/dispatch.h"

namespace funcspec::rules {

Tensor batch_to_front(const BatchedValue& input) {
  if (!input.batched() || *input.bdim == 0) return input.value;
  return call_one("movedim", {input.value}, {{"source", *input.bdim}, {"destination", std::int64_t{0}}});
}

Tensor materialize_batch(const BatchedValue& input, std::int64_t batch_size) {
  if (input.batched()) return batch_to_front(input);
  Shape size = input.value.shape();
  size.insert(size.begin(), batch_size);
  const Tensor one = call_one("unsqueeze", {input.value}, {{"dim", std::int64_t{0}}});
  return call_one("expand", {one}, {{"size", std::vector<std::int64_t>(size.begin(), size.end())}});
}

Tensor align_example_rank(const Tensor& front, bool batched, std::int64_t example_rank, std::int64_t rank) {
  if (!batched || example_rank >= rank) return front;
  Shape size = front.shape();
  size.insert(size.begin() + 1, static_cast<std::size_t>(rank - example_rank), 1);
  return call_one("view", {front}, {{"size", std::vector<std::int64_t>(size.begin(), size.end())}});
}

std::int64_t physical_dim(std::int64_t dim, std::int64_t example_rank, const char* op) {
  return wrap_dim(dim, example_rank, op) + 1;
}

Attrs shift_dim_attr(const Attrs& attrs, const std::string& name, std::int64_t example_rank, const char* op) {
  Attrs shifted = attrs;
  shifted.set(name, physical_dim(attrs.get_int(name), example_rank, op));
  return shifted;
}

Shape example_shape(const BatchedValue& input) {
  Shape shape = input.value.shape();
  if (input.batched()) shape.erase(shape.begin() + *input.bdim);
  return shape;
}

void check_examples(const std::string& op, const BatchedValues& inputs, const Attrs& attrs) {
  TensorList examples;
  for (const BatchedValue& input : inputs) {
    if (!input.value.defined()) {
      examples.push_back(input.value);
      continue;
    }
    Tensor example = Tensor::empty(example_shape(input), input.value.dtype(), Device::Meta);
    example.impl_ptr()->set_wrapped_number(input.value.is_wrapped_number());
    examples.push_back(example);
  }
  call(op, examples, attrs);
}

BatchedValues batched_at_front(const TensorList& results) {
  BatchedValues out;
  for (const Tensor& r : results) out.push_back({r, 0});
  return out;
}

}  // namespace funcspec::rules
