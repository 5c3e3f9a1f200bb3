#include "reference/core/device.h"

namespace funcspec {

std::string_view device_name(Device device) {
  switch (device) {
    case Device::Cpu: return "cpu";
    case Device::Meta: return "meta";
    case Device::Cuda: return "cuda";
  }
  return "?";
}

std::optional<Device> parse_device(std::string_view name) {
  for (Device d : {Device::Cpu, Device::Meta, Device::Cuda}) {
    if (device_name(d) == name) return d;
  }
  return std::nullopt;
}

}  // namespace funcspec
