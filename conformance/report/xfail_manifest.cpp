#include "conformance/report/xfail_manifest.h"

#include <fmt/format.h>

#include <fstream>
#include <map>
#include <sstream>

#include "conformance/report/glob.h"

namespace funcspec::conformance {

namespace {

constexpr std::string_view kBlanks = " \t\r\f\v";

std::string_view trim(std::string_view text) {
  const std::size_t first = text.find_first_not_of(kBlanks);
  if (first == std::string_view::npos) return {};
  const std::size_t last = text.find_last_not_of(kBlanks);
  return text.substr(first, last - first + 1);
}

[[noreturn]] void fail_at(const std::string& file, int line, const std::string& problem) {
  throw XfailManifestError(fmt::format("{}:{}: {}", file, line, problem));
}

}  // namespace

XfailManifest::XfailManifest(std::vector<XfailEntry> entries)
    : entries_(std::move(entries)), used_(std::make_unique<std::atomic<bool>[]>(entries_.size())) {
  for (std::size_t i = 0; i < entries_.size(); ++i) used_[i].store(false);
}

XfailManifest XfailManifest::parse(std::string_view text, const std::string& file) {
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);  // a UTF-8 byte-order mark
  std::vector<XfailEntry> entries;
  std::map<std::string, int, std::less<>> line_of_pattern;
  int line_number = 0;
  while (!text.empty()) {
    ++line_number;
    const std::size_t end = text.find('\n');
    const std::string_view raw = text.substr(0, end);
    text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);

    const std::string_view line = trim(raw);
    if (line.empty() || line.front() == '#') continue;
    const std::size_t hash = line.find('#');
    const std::string_view pattern = trim(line.substr(0, hash));
    if (hash == std::string_view::npos || trim(line.substr(hash + 1)).empty()) {
      fail_at(file, line_number,
              fmt::format("the entry '{}' has no reason: write `{}  # why it fails` (an expected failure "
                          "without a reason is never revisited)",
                          pattern, pattern));
    }
    if (pattern.find_first_of(kBlanks) != std::string_view::npos) {
      fail_at(file, line_number,
              fmt::format("'{}' is not one test id or glob: a pattern has no blanks, and the reason goes "
                          "after '#'",
                          pattern));
    }
    if (const auto problem = glob_syntax_error(pattern)) {
      fail_at(file, line_number, fmt::format("the pattern '{}' is malformed: {}", pattern, *problem));
    }
    if (const auto earlier = line_of_pattern.find(pattern); earlier != line_of_pattern.end()) {
      fail_at(file, line_number,
              fmt::format("the pattern '{}' is already listed on line {}", pattern, earlier->second));
    }
    line_of_pattern.emplace(std::string(pattern), line_number);
    entries.push_back(XfailEntry{std::string(pattern), std::string(trim(line.substr(hash + 1))), file, line_number});
  }
  return XfailManifest(std::move(entries));
}

XfailManifest XfailManifest::load(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw XfailManifestError(fmt::format("{}: cannot open the expected-failure manifest", path.string()));
  std::ostringstream contents;
  contents << in.rdbuf();
  if (in.bad()) throw XfailManifestError(fmt::format("{}: cannot read the expected-failure manifest", path.string()));
  return parse(contents.str(), path.string());
}

const XfailEntry* XfailManifest::match(std::string_view test_id) const {
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    if (glob_match(entries_[i].pattern, test_id)) {
      used_[i].store(true, std::memory_order_relaxed);
      return &entries_[i];
    }
  }
  return nullptr;
}

std::vector<const XfailEntry*> XfailManifest::unmatched() const {
  std::vector<const XfailEntry*> result;
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    if (!used_[i].load(std::memory_order_relaxed)) result.push_back(&entries_[i]);
  }
  return result;
}

std::vector<std::string> XfailManifest::unmatched_patterns() const {
  std::vector<std::string> result;
  for (const XfailEntry* entry : unmatched()) result.push_back(entry->pattern);
  return result;
}

}  // namespace funcspec::conformance
