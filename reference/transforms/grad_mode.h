#pragma once
// NOTE: [no_grad]
// A no_grad region turns off reverse-mode differentiation (grad, grad_and_value, vjp, jacrev and
// the jacrev inside hessian) for the transforms that were already running when it was entered:
// inside f, `with no_grad(): c = x**2` makes c a constant for grad(f). A transform entered inside
// the region is not affected: grad(f) called under no_grad still differentiates, because a function
// transform's result must not depend on context outside f (torch.func behaves the same). Forward
// mode (jvp, jacfwd, linearize) ignores no_grad, as PyTorch's forward-mode AD does; detach stops
// every mode.
namespace funcspec::transforms {

class NoGradGuard {
 public:
  NoGradGuard();
  ~NoGradGuard();
  NoGradGuard(const NoGradGuard&) = delete;
  NoGradGuard& operator=(const NoGradGuard&) = delete;
};

// How many no_grad regions this thread is inside.
int no_grad_depth();

}  // namespace funcspec::transforms
