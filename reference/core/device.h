#pragma once
#include <optional>
#include <string_view>

namespace funcspec {

// `meta` tensors carry shape and dtype but no storage: every op runs on them and produces the
// result's metadata without touching data (for shape inference and memory-light models).
enum class Device { Cpu, Meta, Cuda };

std::string_view device_name(Device device);
std::optional<Device> parse_device(std::string_view name);

}  // namespace funcspec
