#include "reference/transforms/grad_mode.h"

namespace funcspec::transforms {
namespace {

bool& enabled() {
  thread_local bool value = true;
  return value;
}

}  // namespace

GradModeGuard::GradModeGuard(bool enabled_now) : saved_(enabled()) { enabled() = enabled_now; }
GradModeGuard::~GradModeGuard() { enabled() = saved_; }
bool grad_enabled() { return enabled(); }

}  // namespace funcspec::transforms
