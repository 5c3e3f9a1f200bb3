#pragma once
// Which ops vmap computed with its for-loop fallback rather than a batching rule (NOTE: [batching
// rules]). A log records every fallback on its thread while it is alive, so a test can tell
// "correct" from "correct and natively batched":
//
//   VmapFallbackLog log;
//   vmap(f)(x);
//   EXPECT_TRUE(log.counts().empty());
#include <cstdint>
#include <map>
#include <string>

namespace funcspec::transforms {

class VmapFallbackLog {
 public:
  VmapFallbackLog();
  ~VmapFallbackLog();
  VmapFallbackLog(const VmapFallbackLog&) = delete;
  VmapFallbackLog& operator=(const VmapFallbackLog&) = delete;

  // Op name -> how many calls fell back.
  const std::map<std::string, std::int64_t>& counts() const { return counts_; }

 private:
  friend void note_vmap_fallback(const std::string& op);
  std::map<std::string, std::int64_t> counts_;
  VmapFallbackLog* outer_;
};

// Records a fallback in every live log of this thread.
void note_vmap_fallback(const std::string& op);

}  // namespace funcspec::transforms
