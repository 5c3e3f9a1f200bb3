#pragma once
// NOTE: [transform payloads]
// A transform (vmap, grad, jvp) hands the function it transforms tensors that stand for something
// else: under vmap, one example of a batch whose values live in a larger tensor; under jvp, a
// primal carrying a tangent. Such a tensor is an ordinary Tensor handle with the *logical* shape,
// dtype and device, no storage of its own, and a payload saying which transform level it belongs
// to and what it wraps. Kernels never see one: every op call on it is routed by the dispatcher to
// the interpreter of its level (NOTE: [interpreter stack]), which unwraps, computes on the wrapped
// values, and wraps the results.
namespace funcspec {

class TransformPayload {
 public:
  explicit TransformPayload(int level) : level_(level) {}
  virtual ~TransformPayload() = default;
  TransformPayload(const TransformPayload&) = delete;
  TransformPayload& operator=(const TransformPayload&) = delete;
  // The level of the transform instance that created the tensor; levels are never reused, so a
  // tensor that outlives its transform is recognised as escaped.
  int level() const { return level_; }

 private:
  int level_;
};

}  // namespace funcspec
