#pragma once
// Standard base64 (RFC 4648, with '=' padding), used for tensor bytes in case files and in the
// external-process protocol.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace funcspec::conformance {

std::string base64_encode(std::span<const std::uint8_t> bytes);
// Nothing when `text` is not valid padded base64 (whitespace is not allowed either).
std::optional<std::vector<std::uint8_t>> base64_decode(std::string_view text);

}  // namespace funcspec::conformance
