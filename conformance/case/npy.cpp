#include "conformance/case/npy.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <bit>
#include <cctype>
#include <cstring>
#include <fstream>
#include <iterator>
#include <optional>

namespace funcspec::conformance {
namespace {

static_assert(std::endian::native == std::endian::little, "case tensors are stored little-endian, as on the host");

constexpr std::string_view kMagic = "\x93NUMPY";

[[noreturn]] void bad(const std::string& source, const std::string& problem) {
  throw CaseError(source, "", fmt::format("not a supported .npy file: {}", problem));
}

std::optional<DType> dtype_of_descr(std::string_view descr) {
  if (descr == "|b1" || descr == "?") return DType::Bool;
  if (descr == "<i8") return DType::Int64;
  if (descr == "<f4") return DType::Float32;
  if (descr == "<f8") return DType::Float64;
  return std::nullopt;
}

// The header is a Python dict literal such as
//   {'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }
// This reads exactly that grammar: string keys, and string, bool or int-tuple values.
struct NpyHeader {
  std::string descr;
  std::optional<bool> fortran_order;
  std::optional<Shape> shape;
};

class HeaderReader {
 public:
  HeaderReader(std::string_view text, const std::string& source) : text_(text), source_(source) {}

  NpyHeader read() {
    NpyHeader header;
    expect('{');
    while (true) {
      skip_space();
      if (peek() == '}') break;
      const std::string key = read_string();
      expect(':');
      skip_space();
      if (key == "descr") {
        header.descr = read_string();
      } else if (key == "fortran_order") {
        header.fortran_order = read_bool();
      } else if (key == "shape") {
        header.shape = read_shape();
      } else {
        bad(source_, fmt::format("unexpected header key '{}'", key));
      }
      skip_space();
      if (peek() == ',') ++at_;
    }
    if (header.descr.empty() || !header.fortran_order || !header.shape)
      bad(source_, "the header lacks one of 'descr', 'fortran_order' and 'shape'");
    return header;
  }

 private:
  char peek() {
    if (at_ >= text_.size()) bad(source_, "the header ends early");
    return text_[at_];
  }
  void skip_space() {
    while (at_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[at_]))) ++at_;
  }
  void expect(char c) {
    skip_space();
    if (peek() != c) bad(source_, fmt::format("expected '{}' in the header at offset {}", c, at_));
    ++at_;
  }
  std::string read_string() {
    skip_space();
    const char quote = peek();
    if (quote != '\'' && quote != '"') bad(source_, fmt::format("expected a string in the header at offset {}", at_));
    const std::size_t end = text_.find(quote, at_ + 1);
    if (end == std::string_view::npos) bad(source_, "unterminated string in the header");
    std::string value(text_.substr(at_ + 1, end - at_ - 1));
    at_ = end + 1;
    return value;
  }
  bool read_bool() {
    if (text_.substr(at_).starts_with("True")) {
      at_ += 4;
      return true;
    }
    if (text_.substr(at_).starts_with("False")) {
      at_ += 5;
      return false;
    }
    bad(source_, "'fortran_order' is neither True nor False");
  }
  Shape read_shape() {
    expect('(');
    Shape shape;
    while (true) {
      skip_space();
      if (peek() == ')') break;
      std::int64_t size = 0;
      bool any_digit = false;
      while (at_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[at_]))) {
        if (size > (INT64_MAX - 9) / 10) bad(source_, "a dimension of the shape is too large");
        size = size * 10 + (text_[at_++] - '0');
        any_digit = true;
      }
      // A trailing 'L' is what Python 2 wrote for long integers.
      if (at_ < text_.size() && text_[at_] == 'L') ++at_;
      if (!any_digit) bad(source_, fmt::format("expected a dimension in the shape at offset {}", at_));
      shape.push_back(size);
      skip_space();
      if (peek() == ',') ++at_;
    }
    ++at_;
    return shape;
  }

  std::string_view text_;
  const std::string& source_;
  std::size_t at_ = 0;
};

std::uint64_t read_little_endian(std::span<const std::uint8_t> bytes) {
  std::uint64_t value = 0;
  for (std::size_t i = bytes.size(); i-- > 0;) value = (value << 8) | bytes[i];
  return value;
}

// Reorders column-major elements into row-major order.
std::vector<std::uint8_t> fortran_to_c(const std::vector<std::uint8_t>& column_major, const Shape& shape,
                                       std::size_t item) {
  const std::int64_t count = numel_of(shape);
  std::vector<std::uint8_t> row_major(column_major.size());
  std::vector<std::int64_t> index(shape.size(), 0);
  for (std::int64_t c_position = 0; c_position < count; ++c_position) {
    std::int64_t f_position = 0;
    for (std::size_t d = shape.size(); d-- > 0;) f_position = f_position * shape[d] + index[d];
    std::memcpy(&row_major[static_cast<std::size_t>(c_position) * item],
                &column_major[static_cast<std::size_t>(f_position) * item], item);
    for (std::size_t d = shape.size(); d-- > 0;) {
      if (++index[d] < shape[d]) break;
      index[d] = 0;
    }
  }
  return row_major;
}

std::vector<std::uint8_t> c_to_fortran(const std::vector<std::uint8_t>& row_major, const Shape& shape,
                                       std::size_t item) {
  const std::int64_t count = numel_of(shape);
  std::vector<std::uint8_t> column_major(row_major.size());
  std::vector<std::int64_t> index(shape.size(), 0);
  for (std::int64_t c_position = 0; c_position < count; ++c_position) {
    std::int64_t f_position = 0;
    for (std::size_t d = shape.size(); d-- > 0;) f_position = f_position * shape[d] + index[d];
    std::memcpy(&column_major[static_cast<std::size_t>(f_position) * item],
                &row_major[static_cast<std::size_t>(c_position) * item], item);
    for (std::size_t d = shape.size(); d-- > 0;) {
      if (++index[d] < shape[d]) break;
      index[d] = 0;
    }
  }
  return column_major;
}

}  // namespace

std::string npy_descr(DType dtype) {
  switch (dtype) {
    case DType::Bool: return "|b1";
    case DType::Int64: return "<i8";
    case DType::Float32: return "<f4";
    case DType::Float64: return "<f8";
    case DType::Oracle: break;
  }
  throw CaseError("", "", "the oracle dtype has no .npy form");
}

TensorData parse_npy(std::span<const std::uint8_t> bytes, const std::string& source) {
  if (bytes.size() < 10 || std::memcmp(bytes.data(), kMagic.data(), kMagic.size()) != 0)
    bad(source, "it does not start with the .npy magic string");
  const int major = bytes[6];
  const int minor = bytes[7];
  if ((major != 1 && major != 2 && major != 3) || minor != 0)
    bad(source, fmt::format("format version {}.{} (1.0, 2.0 and 3.0 are read)", major, minor));
  const std::size_t length_bytes = major == 1 ? 2 : 4;
  if (bytes.size() < 8 + length_bytes) bad(source, "the header length is cut off");
  const std::uint64_t header_length = read_little_endian(bytes.subspan(8, length_bytes));
  const std::size_t data_start = 8 + length_bytes + header_length;
  if (bytes.size() < data_start) bad(source, "the header is cut off");
  const std::string_view header_text(reinterpret_cast<const char*>(bytes.data()) + 8 + length_bytes, header_length);
  const NpyHeader header = HeaderReader(header_text, source).read();

  const std::optional<DType> dtype = dtype_of_descr(header.descr);
  if (!dtype) {
    const bool big_endian = !header.descr.empty() && header.descr[0] == '>';
    bad(source, fmt::format("dtype '{}'{} (supported: |b1 bool, <i8 int64, <f4 float32, <f8 float64)", header.descr,
                            big_endian ? " is big-endian" : ""));
  }
  TensorData data;
  data.dtype = *dtype;
  data.shape = *header.shape;
  if (!bounded_numel(data.shape))
    bad(source, fmt::format("shape {} has more than {} elements", shape_to_string(data.shape), kMaxCaseElements));
  const std::size_t item = itemsize(*dtype);
  const auto expected_bytes = static_cast<std::size_t>(numel_of(data.shape)) * item;
  const std::size_t available = bytes.size() - data_start;
  if (available != expected_bytes)
    bad(source, fmt::format("shape {} needs {} bytes of data but the file has {}", shape_to_string(data.shape),
                            expected_bytes, available));
  data.bytes.assign(bytes.begin() + static_cast<std::ptrdiff_t>(data_start), bytes.end());
  if (*dtype == DType::Bool) {
    for (std::uint8_t& b : data.bytes) {
      if (b > 1) bad(source, fmt::format("a bool element holds the byte {}", b));
    }
  }
  if (*header.fortran_order) data.bytes = fortran_to_c(data.bytes, data.shape, item);
  return data;
}

TensorData read_npy(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw CaseError(path.string(), "", "cannot open the .npy file");
  const std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return parse_npy(bytes, path.string());
}

std::vector<std::uint8_t> encode_npy(const TensorData& data, NpyOrder order) {
  std::string shape_text;
  for (std::int64_t s : data.shape) shape_text += fmt::format("{}, ", s);
  if (data.shape.size() > 1) shape_text.resize(shape_text.size() - 2);  // (2, 3) but (4,) and ()
  if (data.shape.size() == 1) shape_text.pop_back();
  std::string header = fmt::format("{{'descr': '{}', 'fortran_order': {}, 'shape': ({}), }}", npy_descr(data.dtype),
                                   order == NpyOrder::Fortran ? "True" : "False", shape_text);
  // Pad with spaces so that the data starts at a multiple of 64 bytes, ending the header with '\n'.
  const std::size_t preamble = kMagic.size() + 2 + 2;
  const std::size_t total = (preamble + header.size() + 1 + 63) / 64 * 64;
  header.append(total - preamble - header.size() - 1, ' ');
  header.push_back('\n');

  std::vector<std::uint8_t> out(kMagic.begin(), kMagic.end());
  out.push_back(1);
  out.push_back(0);
  out.push_back(static_cast<std::uint8_t>(header.size() & 0xff));
  out.push_back(static_cast<std::uint8_t>(header.size() >> 8));
  out.insert(out.end(), header.begin(), header.end());
  const std::vector<std::uint8_t> body =
      order == NpyOrder::Fortran ? c_to_fortran(data.bytes, data.shape, itemsize(data.dtype)) : data.bytes;
  out.insert(out.end(), body.begin(), body.end());
  return out;
}

void write_npy(const std::filesystem::path& path, const TensorData& data, NpyOrder order) {
  const std::vector<std::uint8_t> bytes = encode_npy(data, order);
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  if (!out) throw CaseError(path.string(), "", "cannot write the .npy file");
}

}  // namespace funcspec::conformance
