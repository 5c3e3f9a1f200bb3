#pragma once
// Reading case files (docs/case-format.md). Reading validates everything that can be checked
// without running the program: the format tag, dtypes, data counts against shapes, SSA names, op
// names and attribute types against the op's schema, transform fields, and that the expectation
// names exactly the results. Every problem is a CaseError naming the file and the JSON path
// (`program[2].attrs.dim`).
#include <filesystem>
#include <string>
#include <string_view>

#include "conformance/case/case.h"
#include "conformance/case/json.h"

namespace funcspec::conformance {

// `file` names the case in messages; `.npy` files are looked up relative to `base_dir`.
Case parse_case(const Json& json, const std::string& file, const std::filesystem::path& base_dir);
Case parse_case_text(std::string_view text, const std::string& file = "<case>",
                     const std::filesystem::path& base_dir = ".");
Case read_case_file(const std::filesystem::path& path);

// A tensor alone (the external-process protocol reuses it). `allow_omitted_values` accepts a
// tensor given by dtype and shape alone (a meta case's tensors).
TensorSpec parse_tensor(const Json& json, const std::string& json_path, const std::string& file,
                        const std::filesystem::path& base_dir, bool allow_omitted_values = false);

}  // namespace funcspec::conformance
