#pragma once
// docs/SPEC.md as data (NOTE: [spec clauses]). Each clause is a level-3 heading
// `### AREA-MAJOR.MINOR Title`, normative prose, an example, and exactly one line
// `Tests: `pattern`, `pattern`` naming the conformance tests that check it by id glob.
// Reports group test results by these clauses, so the parser refuses anything ambiguous: a
// malformed id, a duplicate, a clause with no Tests line or two of them, an empty pattern list.
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace funcspec::conformance {

struct SpecClause {
  std::string id;                          // `TENSOR-1.2`
  std::string title;                       // the rest of the heading
  std::vector<std::string> test_patterns;  // globs over test ids (`*` any run, `?` one character)
  int line = 0;                            // of the heading, 1-based
};

// A malformed SPEC.md, located as `file:line: problem`.
class SpecError : public std::runtime_error {
 public:
  SpecError(std::string file, int line, std::string problem);
  const std::string& file() const { return file_; }
  int line() const { return line_; }
  const std::string& problem() const { return problem_; }

 private:
  std::string file_;
  int line_;
  std::string problem_;
};

// The clauses of `markdown` in document order; `file` names it in errors.
std::vector<SpecClause> parse_spec(std::string_view markdown, const std::string& file);

// Whether `id` has the form AREA-MAJOR.MINOR (AREA: capital letters; MAJOR, MINOR: decimal numbers
// without leading zeros).
bool is_clause_id(std::string_view id);

// docs/SPEC.md as it was when the library was configured, parsed once.
std::string_view embedded_spec_text();
const std::vector<SpecClause>& embedded_spec();

}  // namespace funcspec::conformance
