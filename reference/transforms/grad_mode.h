#pragma once
// NOTE: [no_grad]
// A no_grad region turns off reverse-mode differentiation (grad, grad_and_value, vjp, jacrev and
// the jacrev inside hessian) for the transforms that were already running when it was entered:
// inside f, `with no_grad(): c = x**2` makes c a constant for grad(f). A transform entered inside
// the region is not affected: grad(f) called under no_grad still differentiates, because a function
// transform's result must not depend on context outside f (torch.func behaves the same). Forward
// mode (jvp, jacfwd, linearize) ignores no_grad, as PyTorch's forward-mode AD does; detach stops
// every mode.
//
// The mode is one flag per thread, and regions nest: the innermost decides, so an enable_grad
// region inside a no_grad region differentiates again (SPEC AD-5.5). A reverse-mode transform runs
// its f with the flag on, and remembers the flag it was entered with: what its level hands down to
// the levels below it runs with the flag off when the transform was entered inside a no_grad region,
// whatever f does inside. So an enable_grad region inside f cannot make the result of a transform
// called under no_grad differentiable for the transforms outside it (functorch's "previous grad
// mode" rule).
namespace funcspec::transforms {

// Sets the grad mode for its lifetime and restores the previous one.
class GradModeGuard {
 public:
  explicit GradModeGuard(bool enabled);
  ~GradModeGuard();
  GradModeGuard(const GradModeGuard&) = delete;
  GradModeGuard& operator=(const GradModeGuard&) = delete;

 private:
  bool saved_;
};

class NoGradGuard : public GradModeGuard {
 public:
  NoGradGuard() : GradModeGuard(false) {}
};

class EnableGradGuard : public GradModeGuard {
 public:
  EnableGradGuard() : GradModeGuard(true) {}
};

// Whether reverse-mode levels differentiate what runs now on this thread.
bool grad_enabled();

}  // namespace funcspec::transforms
