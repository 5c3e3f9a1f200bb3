#include "conformance/spec/test_id_glob.h"

#include <cstddef>

namespace funcspec::conformance {

bool test_id_matches(std::string_view pattern, std::string_view id) {
  // Greedy matching with one backtrack point (the last `*`): linear in practice and never
  // exponential, whatever the pattern.
  std::size_t p = 0, i = 0;
  std::size_t star = std::string_view::npos, resume = 0;
  while (i < id.size()) {
    if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == id[i])) {
      ++p;
      ++i;
    } else if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      resume = i;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      i = ++resume;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

}  // namespace funcspec::conformance
