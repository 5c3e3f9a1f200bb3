#pragma once
// Shared steps of batching rules (NOTE: [batching rules]). Most rules move the batch dim to the
// front, shift the op's dim attributes past it, and call the op on the values.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "reference/ops/attrs.h"
#include "reference/transforms/batched.h"

namespace funcspec::rules {

using transforms::BatchedValue;
using transforms::BatchedValues;

// The value with its batch dim at 0 (an unbatched value is returned as it is).
Tensor batch_to_front(const BatchedValue& input);

// The value with its batch dim at 0 and of size `batch_size`: an unbatched value is expanded
// (a view, no copy) so every example sees it.
Tensor materialize_batch(const BatchedValue& input, std::int64_t batch_size);

// A batched-at-front value with size-1 dims inserted after the batch dim until its example has
// rank `rank` (so examples of different ranks broadcast as the examples would). Unbatched values
// are returned as they are: they broadcast against the examples by trailing alignment already.
Tensor align_example_rank(const Tensor& front, bool batched, std::int64_t example_rank, std::int64_t rank);

// The physical dim, with the batch at 0, of the example's `dim` (negative counts from the end).
std::int64_t physical_dim(std::int64_t dim, std::int64_t example_rank, const char* op);

// `attrs` with the int attribute `name` (an example's dim) moved past a front batch dim.
Attrs shift_dim_attr(const Attrs& attrs, const std::string& name, std::int64_t example_rank, const char* op);

// One example's shape: the value's without the batch dim.
Shape example_shape(const BatchedValue& input);

// Runs `op` on meta examples of `inputs` (nothing is computed): an invalid call raises what the
// unbatched op raises, naming the example's shape and rank, before the batch is touched. The
// batched call could not: it sees one more dim.
void check_examples(const std::string& op, const BatchedValues& inputs, const Attrs& attrs);

// Results of an op on front-batched values: every result batched at 0.
BatchedValues batched_at_front(const TensorList& results);

}  // namespace funcspec::rules
