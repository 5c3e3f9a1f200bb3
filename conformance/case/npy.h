#pragma once
// NumPy .npy files (format versions 1.0, 2.0 and 3.0) holding bool (|b1), int64 (<i8), float32 (<f4)
// or float64 (<f8) arrays. C and Fortran order are read; files are written in C order unless asked.
// Anything else (another dtype, big-endian data, object arrays, a truncated file) is a CaseError
// naming the file and the problem.
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "conformance/case/case.h"

namespace funcspec::conformance {

enum class NpyOrder { C, Fortran };

// `source` names the bytes in error messages (a file path).
TensorData parse_npy(std::span<const std::uint8_t> bytes, const std::string& source);
TensorData read_npy(const std::filesystem::path& path);

std::vector<std::uint8_t> encode_npy(const TensorData& data, NpyOrder order = NpyOrder::C);
void write_npy(const std::filesystem::path& path, const TensorData& data, NpyOrder order = NpyOrder::C);

// The descr string of a dtype ("<f8") and back.
std::string npy_descr(DType dtype);

}  // namespace funcspec::conformance
