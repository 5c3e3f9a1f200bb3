#pragma once
// Writing case files (docs/case-format.md): the JSON form of a case, and the .npy files beside it.
#include <filesystem>
#include <string>

#include "conformance/case/case.h"
#include "conformance/case/json.h"

namespace funcspec::conformance {

// The JSON form of a case; float64 values are written in their shortest round-trip form, so
// parse(write(c)) reproduces every value bit for bit (NaN payloads aside).
Json case_to_json(const Case& c);
std::string write_case_text(const Case& c);
// Writes the case to `path` and, beside it, every .npy file it refers to.
void write_case_file(const Case& c, const std::filesystem::path& path);

// A tensor alone (the external-process protocol reuses it).
Json tensor_to_json(const TensorSpec& tensor);

}  // namespace funcspec::conformance
