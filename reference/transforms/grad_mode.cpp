#include "reference/transforms/grad_mode.h"

namespace funcspec::transforms {
namespace {

int& depth() {
  thread_local int value = 0;
  return value;
}

}  // namespace

NoGradGuard::NoGradGuard() { ++depth(); }
NoGradGuard::~NoGradGuard() { --depth(); }
int no_grad_depth() { return depth(); }

}  // namespace funcspec::transforms
