#pragma once
// NOTE: [batched tensors]
// Under vmap, the function sees one example of a batch. The tensor it sees is a wrapper (NOTE:
// [transform payloads]) whose payload holds the whole batch, `value`, and the dim of `value` the
// batch runs along, `bdim`; the wrapper's logical shape is value's shape without that dim. A
// batching rule works on (value, bdim) pairs, where an input that is not batched at the rule's
// level has no bdim, and returns (value, bdim) pairs for the results.
//
//   logical x: [3]      value: [B, 3], bdim 0      or      value: [3, B], bdim 1
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "reference/core/tensor.h"

namespace funcspec::transforms {

class BatchedPayload final : public TransformPayload {
 public:
  BatchedPayload(int level, Tensor value, std::int64_t bdim)
      : TransformPayload(level), value_(std::move(value)), bdim_(bdim) {}
  const Tensor& value() const { return value_; }
  std::int64_t bdim() const { return bdim_; }
  const Tensor* wrapped_values() const override { return &value_; }
  std::string_view description() const override { return "a tensor batched by vmap"; }

 private:
  Tensor value_;
  std::int64_t bdim_;
};

// A tensor as a batching rule sees it at one level.
struct BatchedValue {
  Tensor value;
  std::optional<std::int64_t> bdim;  // nullopt: the same for every example of the batch

  bool batched() const { return bdim.has_value(); }
  // The rank of one example.
  std::int64_t logical_rank() const { return value.dim() - (bdim ? 1 : 0); }
};
using BatchedValues = std::vector<BatchedValue>;

// `value` as one example of a batch at `level` along `bdim` (value itself when bdim is nullopt).
Tensor make_batched(const Tensor& value, std::optional<std::int64_t> bdim, int level);

// What `tensor` is at `level`: its payload's value and bdim when it is batched there, otherwise the
// tensor itself (a plain tensor, or one batched at a lower level) with no bdim.
BatchedValue unwrap_batched(const Tensor& tensor, int level);

// The batch payload of `tensor` at `level`, or nullptr.
const BatchedPayload* batched_payload(const Tensor& tensor, int level);

}  // namespace funcspec::transforms
