#pragma once
// NOTE: [transform payloads]
// A transform (vmap, grad, jvp) hands the function it transforms tensors that stand for something
// else: under vmap, one example of a batch whose values live in a larger tensor; under jvp, a
// primal carrying a tangent. Such a tensor is an ordinary Tensor handle with the *logical* shape,
// dtype and device, no storage of its own, and a payload saying which transform level it belongs
// to and what it wraps. Kernels never see one: every op call on it is routed by the dispatcher to
// the interpreter of its level (NOTE: [interpreter stack]), which unwraps, computes on the wrapped
// values, and wraps the results.
//
// Each payload also says, without its transform's help, what it wraps and how messages name it, so
// that code which must see through every transform's wrappers walks them in one place (NOTE:
// [wrapper walk]) instead of knowing each kind of payload.
#include <string_view>
#include <vector>

namespace funcspec {

class Tensor;

class TransformPayload {
 public:
  explicit TransformPayload(int level) : level_(level) {}
  virtual ~TransformPayload() = default;
  TransformPayload(const TransformPayload&) = delete;
  TransformPayload& operator=(const TransformPayload&) = delete;
  // The level of the transform instance that created the tensor; levels are never reused, so a
  // tensor that outlives its transform is recognised as escaped.
  int level() const { return level_; }

  // The tensor, below the level, that holds the values the wrapper shows (a batch's value, a dual's
  // primal), or nullptr when none does (a linear variable stands for values never computed).
  virtual const Tensor* wrapped_values() const = 0;
  // What else the wrapper carries below its level (a dual's tangent), visited after wrapped_values().
  virtual std::vector<const Tensor*> also_wrapped() const { return {}; }
  // The memory the wrapper itself stands for, where no tensor below the level holds it (functionalize's
  // alias groups stand for a storage, NOTE: [functionalization]); nullptr when the wrapper's values
  // live in wrapped_values()'s memory.
  virtual const void* own_memory() const { return nullptr; }
  // How messages name a tensor with this payload: "a tensor batched by vmap".
  virtual std::string_view description() const = 0;

 private:
  int level_;
};

}  // namespace funcspec
