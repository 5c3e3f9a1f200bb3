#include "reference/transforms/fallback_log.h"

namespace funcspec::transforms {
namespace {

VmapFallbackLog*& innermost_log() {
  thread_local VmapFallbackLog* log = nullptr;
  return log;
}

}  // namespace

VmapFallbackLog::VmapFallbackLog() : outer_(innermost_log()) { innermost_log() = this; }

VmapFallbackLog::~VmapFallbackLog() { innermost_log() = outer_; }

void note_vmap_fallback(const std::string& op) {
  for (VmapFallbackLog* log = innermost_log(); log != nullptr; log = log->outer_) ++log->counts_[op];
}

}  // namespace funcspec::transforms
