#pragma once
// NOTE: [batching rules]
// A batching rule computes one op for a whole batch at once: it takes the op's inputs as
// (value, bdim) pairs at one vmap level (NOTE: [batched tensors]) and returns the results as
// (value, bdim) pairs, calling ordinary ops on the values. It runs below its level (the
// interpreter lowers first), so the ops it calls are handled by outer transforms, if any.
// Rules live with the op family's other transform rules in reference/rules/<family>.cpp, and each
// op carries its own (NOTE: [op rules]).
// An op without a rule still works under vmap through the for-loop fallback, which is counted
// (fallback_log.h): "correct" and "has a native batching rule" are separate facts.
#include <cstdint>
#include <functional>
#include <string>

#include "reference/ops/attrs.h"
#include "reference/transforms/batched.h"
#include "reference/transforms/randomness.h"

namespace funcspec {
struct OpDef;
}

namespace funcspec::transforms {

struct BatchContext {
  std::int64_t batch_size = 0;  // the examples this call computes (a chunk's, under chunk_size)
  Randomness randomness = Randomness::Error;
  // Under chunk_size: the whole batch and where this chunk starts in it, so that random draws
  // can be those of the unchunked call.
  std::int64_t full_batch_size = 0;
  std::int64_t chunk_start = 0;
};

using BatchRule =
    std::function<BatchedValues(const BatchedValues& inputs, const Attrs& attrs, const BatchContext& context)>;

}  // namespace funcspec::transforms
