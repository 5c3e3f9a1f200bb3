#pragma once
// The JSON of the suite's files (case files, reports, the external-process protocol): objects keep
// their fields in the order they were written, so a written file reads as its writer laid it out;
// and floats that JSON has no number for are spelt as strings, the same way by every writer and
// reader.
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace funcspec::conformance {

using Json = nlohmann::ordered_json;

// A number when finite, else the string "nan", "inf" or "-inf".
Json float_to_json(double value);

// The float a string spells: "nan", "inf", "+inf", "-inf", or a C99 hex float ("0x1.8p+1") for
// writers that want exact bits in text; nullopt for any other string.
std::optional<double> float_from_json_string(const std::string& text);

}  // namespace funcspec::conformance
