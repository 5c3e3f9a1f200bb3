#include "conformance/report/glob.h"

#include <cstddef>

namespace funcspec::conformance {

namespace {

// The length of the class starting at pattern[start] == '[', or 0 when it is not closed. A `]`
// right after `[` or `[!` is a member, not the end.
std::size_t class_length(std::string_view pattern, std::size_t start) {
  std::size_t i = start + 1;
  if (i < pattern.size() && (pattern[i] == '!' || pattern[i] == '^')) ++i;
  if (i < pattern.size() && pattern[i] == ']') ++i;
  while (i < pattern.size() && pattern[i] != ']') ++i;
  return i < pattern.size() ? i - start + 1 : 0;
}

bool class_contains(std::string_view klass, char c) {
  // klass is the text between the brackets.
  bool negated = false;
  std::size_t i = 0;
  if (i < klass.size() && (klass[i] == '!' || klass[i] == '^')) {
    negated = true;
    ++i;
  }
  bool found = false;
  const std::size_t first = i;
  while (i < klass.size()) {
    const bool is_range = i + 2 < klass.size() && klass[i + 1] == '-' && !(i == first && klass[i] == '-');
    if (is_range) {
      const auto low = static_cast<unsigned char>(klass[i]);
      const auto high = static_cast<unsigned char>(klass[i + 2]);
      const auto value = static_cast<unsigned char>(c);
      if (low <= value && value <= high) found = true;
      i += 3;
    } else {
      if (klass[i] == c) found = true;
      ++i;
    }
  }
  return found != negated;
}

// Whether the single-character element at pattern[p] matches c, and how long the element is.
bool element_matches(std::string_view pattern, std::size_t p, char c, std::size_t& length) {
  const char head = pattern[p];
  if (head == '?') {
    length = 1;
    return true;
  }
  if (head == '\\' && p + 1 < pattern.size()) {
    length = 2;
    return pattern[p + 1] == c;
  }
  if (head == '[') {
    const std::size_t n = class_length(pattern, p);
    if (n > 0) {
      length = n;
      return class_contains(pattern.substr(p + 1, n - 2), c);
    }
  }
  length = 1;
  return head == c;
}

}  // namespace

bool glob_match(std::string_view pattern, std::string_view text) {
  // Greedy matching that, on a mismatch, retries only from the most recent `*` with one more
  // character swallowed. Earlier stars never need revisiting: whatever the later star can absorb
  // covers every choice they could make, which keeps the work quadratic at worst.
  std::size_t p = 0;
  std::size_t t = 0;
  std::size_t star_p = std::string_view::npos;
  std::size_t star_t = 0;
  while (t < text.size()) {
    if (p < pattern.size() && pattern[p] == '*') {
      star_p = ++p;
      star_t = t;
      continue;
    }
    std::size_t length = 1;
    if (p < pattern.size() && element_matches(pattern, p, text[t], length)) {
      p += length;
      ++t;
      continue;
    }
    if (star_p == std::string_view::npos) return false;
    p = star_p;
    t = ++star_t;
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

std::optional<std::string> glob_syntax_error(std::string_view pattern) {
  for (std::size_t p = 0; p < pattern.size(); ++p) {
    if (pattern[p] == '\\') {
      if (p + 1 == pattern.size()) return std::string("a trailing '\\' escapes nothing");
      ++p;
    } else if (pattern[p] == '[') {
      const std::size_t n = class_length(pattern, p);
      if (n == 0) return "the '[' at offset " + std::to_string(p) + " is never closed by ']'";
      p += n - 1;
    }
  }
  return std::nullopt;
}

bool is_glob_pattern(std::string_view pattern) { return pattern.find_first_of("*?[\\") != std::string_view::npos; }

bool filter_selects(std::string_view filter, std::string_view test_id, const std::vector<std::string>& clauses) {
  if (filter.empty() || glob_match(filter, test_id)) return true;
  for (const std::string& clause : clauses) {
    if (glob_match(filter, clause)) return true;
  }
  return false;
}

}  // namespace funcspec::conformance
