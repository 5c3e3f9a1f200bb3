#pragma once
// A data file of the suite (a tolerance table) read whole: JSON whose top-level "format" names its
// version. Each failure names the file and what was expected, so a broken table stops a run with a
// sentence rather than a JSON library's exception.
#include <nlohmann/json.hpp>

#include <filesystem>
#include <string_view>

namespace funcspec::conformance {

// The JSON object in `path` whose "format" is `format`; `what` names it in errors ("the AD
// tolerance table"). Throws std::runtime_error when the file is missing, not JSON, or of another format.
nlohmann::json read_versioned_json(const std::filesystem::path& path, std::string_view format, std::string_view what);

}  // namespace funcspec::conformance
