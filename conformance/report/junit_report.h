#pragma once
// The JUnit XML report (`funcspec check --junit FILE`), the dialect GitLab, Jenkins and GitHub test
// reporters read (docs/report-format.md): one <testsuite> per run; a test id `A/B/c` becomes
// classname `A.B` and name `c`; fail and xpass are <failure>, error is <error>, unsupported and skip
// are <skipped>, xfail passes with a <system-out> note.
#include <filesystem>
#include <string>
#include <string_view>

#include "conformance/report/test_record.h"

namespace funcspec::conformance {

std::string write_junit_text(const Report& report);
void write_junit_file(const Report& report, const std::filesystem::path& path);

// Text made safe for XML 1.0 character data and attribute values: markup characters become
// entities, and what XML 1.0 cannot hold at all (control characters other than tab, newline and
// carriage return; U+FFFE, U+FFFF; bytes that are not UTF-8) becomes a visible `\xNN` escape.
// In attributes, tab, newline and carriage return become character references so that attribute
// normalization keeps them.
std::string xml_escape(std::string_view text, bool attribute);

}  // namespace funcspec::conformance
