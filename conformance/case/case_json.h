#pragma once
// Reading and writing case files (docs/case-format.md). Reading validates everything that can be
// checked without running the program: the format tag, dtypes, data counts against shapes, SSA
// names, op names and attribute types against the op's schema, transform fields, and that the
// expectation names exactly the results. Every problem is a CaseError naming the file and the JSON
// path (`program[2].attrs.dim`).
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "conformance/case/case.h"

namespace funcspec::conformance {

using Json = nlohmann::ordered_json;

// `file` names the case in messages; `.npy` files are looked up relative to `base_dir`.
Case parse_case(const Json& json, const std::string& file, const std::filesystem::path& base_dir);
Case parse_case_text(std::string_view text, const std::string& file = "<case>",
                     const std::filesystem::path& base_dir = ".");
Case read_case_file(const std::filesystem::path& path);

// The JSON form of a case; float64 values are written in their shortest round-trip form, so
// parse(write(c)) reproduces every value bit for bit (NaN payloads aside).
Json case_to_json(const Case& c);
std::string write_case_text(const Case& c);
// Writes the case to `path` and, beside it, every .npy file it refers to.
void write_case_file(const Case& c, const std::filesystem::path& path);

// The tensor parts alone (the external-process protocol reuses them). `allow_omitted_values`
// accepts a tensor given by dtype and shape alone (a meta case's tensors).
TensorSpec parse_tensor(const Json& json, const std::string& json_path, const std::string& file,
                        const std::filesystem::path& base_dir, bool allow_omitted_values = false);
Json tensor_to_json(const TensorSpec& tensor);

}  // namespace funcspec::conformance
