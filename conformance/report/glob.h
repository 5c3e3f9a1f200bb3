#pragma once
// Shell-style wildcard matching for --filter and the expected-failure manifest: `*` matches any run
// of characters (including `/`, so `OPS-VALUES/*` reaches every test under it), `?` exactly one,
// `[abc]`, `[a-z]` and `[!a]` (or `[^a]`) one character of a class, and `\c` the character c itself.
// Matching is on bytes and takes O(|pattern| * |text|) time at worst: no pattern backtracks
// exponentially.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace funcspec::conformance {

bool glob_match(std::string_view pattern, std::string_view text);

// Why a pattern is malformed (an unclosed `[`, a trailing `\`), or nothing. glob_match reads a
// malformed class as literal characters; the manifest refuses it instead, since a typo there would
// silently list nothing.
std::optional<std::string> glob_syntax_error(std::string_view pattern);

// Whether the pattern holds any wildcard, i.e. can match more than one text.
bool is_glob_pattern(std::string_view pattern);

// --filter: an empty filter selects every test; otherwise a test is selected when the pattern
// matches its id or any of its clause ids.
bool filter_selects(std::string_view filter, std::string_view test_id, const std::vector<std::string>& clauses);

}  // namespace funcspec::conformance
