#pragma once
// The expected-failure manifest (`funcspec check --xfail FILE`, docs/report-format.md): one entry per
// line, `PATTERN  # reason`, where PATTERN is a stable test id or a glob over ids (glob.h) and the
// reason is required. Blank lines and lines whose first non-blank character is `#` are comments.
#include <atomic>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace funcspec::conformance {

// A manifest that cannot be read or parsed; the message starts with `file:line: `.
class XfailManifestError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct XfailEntry {
  std::string pattern;
  std::string reason;
  std::string file;  // where it was written, for messages
  int line = 0;
};

class XfailManifest {
 public:
  XfailManifest() = default;
  // `file` names the manifest in error messages.
  static XfailManifest parse(std::string_view text, const std::string& file = "<xfail>");
  static XfailManifest load(const std::filesystem::path& path);

  // The first entry, in file order, whose pattern matches the id, or nullptr; that entry is
  // remembered as used. Safe to call from several threads at once.
  const XfailEntry* match(std::string_view test_id) const;
  // Entries that matched no id passed to match() so far, in file order.
  std::vector<const XfailEntry*> unmatched() const;
  // Their patterns, as RunInfo::xfail_unmatched stores them.
  std::vector<std::string> unmatched_patterns() const;

  const std::vector<XfailEntry>& entries() const { return entries_; }
  bool empty() const { return entries_.empty(); }

 private:
  explicit XfailManifest(std::vector<XfailEntry> entries);
  std::vector<XfailEntry> entries_;
  std::unique_ptr<std::atomic<bool>[]> used_;  // one flag per entry
};

}  // namespace funcspec::conformance
