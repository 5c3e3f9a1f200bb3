#include "conformance/case/versioned_json.h"

#include <fmt/format.h>

#include <fstream>
#include <stdexcept>

namespace funcspec::conformance {

nlohmann::json read_versioned_json(const std::filesystem::path& path, std::string_view format, std::string_view what) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(fmt::format("cannot read {} {}", what, path.string()));
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(fmt::format("{} {} is not JSON: {}", what, path.string(), e.what()));
  }
  if (!j.is_object() || j.value("format", "") != format)
    throw std::runtime_error(fmt::format("{} is not a {} table", path.string(), format));
  return j;
}

}  // namespace funcspec::conformance
