#pragma once
#include <string_view>

namespace funcspec::conformance {

// Whether a test id matches a clause's test pattern: `*` matches any run of characters (`/`
// included, so `OPS-VALUES/*` covers every op and sample), `?` exactly one; everything else
// matches itself, case-sensitively.
bool test_id_matches(std::string_view pattern, std::string_view id);

}  // namespace funcspec::conformance
