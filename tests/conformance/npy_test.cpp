// .npy reading and writing, and the base64 codec, against bytes written out by hand.
#include "conformance/case/npy.h"

#include <gtest/gtest.h>

#include <cstring>
#include <fstream>

#include "conformance/case/base64.h"
#include "tests/conformance/case_test_support.h"

namespace funcspec::conformance {
namespace {

using testing_support::scratch_dir;

template <typename T>
TensorData data_of(DType dtype, const Shape& shape, const std::vector<T>& values) {
  TensorData data{dtype, shape, std::vector<std::uint8_t>(values.size() * sizeof(T))};
  std::memcpy(data.bytes.data(), values.data(), data.bytes.size());
  return data;
}

// A version 1.0 file with the given header dict and raw data, padded as NumPy pads it.
std::vector<std::uint8_t> handmade_npy(const std::string& dict, const std::vector<std::uint8_t>& body) {
  std::string header = dict;
  while ((10 + header.size() + 1) % 64 != 0) header.push_back(' ');
  header.push_back('\n');
  std::string text = "\x93NUMPY";
  text += {'\x01', '\x00', static_cast<char>(header.size()), '\x00'};
  text += header;
  text.append(body.begin(), body.end());
  return {text.begin(), text.end()};
}

TEST(Npy, Float64RoundTrips) {
  const TensorData data = data_of<double>(DType::Float64, {2, 3}, {1.5, -0.0, 1e-300, 4, 5, 6});
  EXPECT_EQ(parse_npy(encode_npy(data), "mem"), data);
}

TEST(Npy, Float32RoundTrips) {
  const TensorData data = data_of<float>(DType::Float32, {3}, {0.1f, -2.5f, 3e38f});
  EXPECT_EQ(parse_npy(encode_npy(data), "mem"), data);
}

TEST(Npy, Int64RoundTrips) {
  const TensorData data = data_of<std::int64_t>(DType::Int64, {2, 2}, {INT64_MIN, -1, 0, INT64_MAX});
  EXPECT_EQ(parse_npy(encode_npy(data), "mem"), data);
}

TEST(Npy, BoolRoundTrips) {
  const TensorData data{DType::Bool, {4}, {1, 0, 0, 1}};
  EXPECT_EQ(parse_npy(encode_npy(data), "mem"), data);
}

TEST(Npy, RankZeroAndEmptyRoundTrip) {
  const TensorData scalar = data_of<double>(DType::Float64, {}, {7.0});
  const TensorData empty{DType::Float32, {0, 3}, {}};
  EXPECT_EQ(parse_npy(encode_npy(scalar), "mem"), scalar);
  EXPECT_EQ(parse_npy(encode_npy(empty), "mem"), empty);
}

TEST(Npy, HeaderIsWhatNumpyWrites) {
  const std::vector<std::uint8_t> bytes = encode_npy(data_of<double>(DType::Float64, {2, 3}, {1, 2, 3, 4, 5, 6}));
  const std::string text(bytes.begin() + 10, bytes.begin() + 10 + bytes[8]);
  EXPECT_EQ(text.substr(0, 59), "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }");
  EXPECT_EQ((bytes.size() - 48) % 64, 0u);  // the data starts on a 64-byte boundary
  EXPECT_EQ(text.back(), '\n');
}

TEST(Npy, OneDimShapeHasATrailingComma) {
  const std::vector<std::uint8_t> bytes = encode_npy(data_of<std::int64_t>(DType::Int64, {4}, {1, 2, 3, 4}));
  const std::string text(bytes.begin() + 10, bytes.end());
  EXPECT_NE(text.find("'shape': (4,)"), std::string::npos);
}

TEST(Npy, FortranOrderIsReadIntoCOrder) {
  // The matrix [[1, 2, 3], [4, 5, 6]] stored column by column: 1 4 2 5 3 6.
  const std::vector<std::int64_t> column_major = {1, 4, 2, 5, 3, 6};
  std::vector<std::uint8_t> body(48);
  std::memcpy(body.data(), column_major.data(), 48);
  const TensorData data =
      parse_npy(handmade_npy("{'descr': '<i8', 'fortran_order': True, 'shape': (2, 3), }", body), "f.npy");
  EXPECT_EQ(data, data_of<std::int64_t>(DType::Int64, {2, 3}, {1, 2, 3, 4, 5, 6}));
}

TEST(Npy, FortranOrderWriteThenReadIsTheIdentity) {
  const TensorData data = data_of<double>(DType::Float64, {2, 3, 2}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});
  const std::vector<std::uint8_t> bytes = encode_npy(data, NpyOrder::Fortran);
  double second_stored = 0;  // column-major: index [1, 0, 0] comes second, holding 6
  std::memcpy(&second_stored, bytes.data() + (bytes.size() - 96) + 8, 8);
  EXPECT_EQ(second_stored, 6.0);
  EXPECT_EQ(parse_npy(bytes, "f.npy"), data);
}

TEST(Npy, FilesRoundTrip) {
  const auto path = scratch_dir() / "a.npy";
  const TensorData data = data_of<float>(DType::Float32, {2}, {1.25f, -3.0f});
  write_npy(path, data);
  EXPECT_EQ(read_npy(path), data);
}

// Each of these must be refused with a CaseError that names the source and the problem.
void expect_refused(const std::vector<std::uint8_t>& bytes, const std::string& fragment) {
  try {
    parse_npy(bytes, "bad.npy");
    ADD_FAILURE() << "expected a CaseError mentioning " << fragment;
  } catch (const CaseError& e) {
    EXPECT_EQ(e.file(), "bad.npy");
    EXPECT_NE(e.problem().find(fragment), std::string::npos) << e.what();
  }
}

TEST(NpyErrors, NotAnNpyFile) { expect_refused({'h', 'e', 'l', 'l', 'o', 0, 0, 0, 0, 0, 0}, "magic"); }

TEST(NpyErrors, UnsupportedDtype) {
  expect_refused(handmade_npy("{'descr': '<i4', 'fortran_order': False, 'shape': (1,), }", {0, 0, 0, 0}), "'<i4'");
}

TEST(NpyErrors, BigEndian) {
  expect_refused(
      handmade_npy("{'descr': '>f8', 'fortran_order': False, 'shape': (1,), }", std::vector<std::uint8_t>(8)),
      "big-endian");
}

TEST(NpyErrors, TruncatedData) {
  expect_refused(
      handmade_npy("{'descr': '<f8', 'fortran_order': False, 'shape': (2,), }", std::vector<std::uint8_t>(8)),
      "needs 16 bytes");
}

TEST(NpyErrors, UnknownVersion) {
  std::vector<std::uint8_t> bytes = encode_npy(TensorData{DType::Bool, {1}, {1}});
  bytes[6] = 4;
  expect_refused(bytes, "version 4.0");
}

TEST(NpyErrors, ShapeWhoseElementCountOverflows) {
  expect_refused(handmade_npy("{'descr': '<f8', 'fortran_order': False, 'shape': (4611686018427387904, 4), }", {}),
                 "more than");
}

TEST(NpyErrors, MissingHeaderKey) {
  expect_refused(handmade_npy("{'descr': '<f8', 'shape': (1,), }", std::vector<std::uint8_t>(8)), "fortran_order");
}

TEST(NpyErrors, ObjectArraysAreRefused) {
  expect_refused(handmade_npy("{'descr': '|O', 'fortran_order': False, 'shape': (1,), }", std::vector<std::uint8_t>(8)),
                 "'|O'");
}

TEST(NpyErrors, MissingFile) {
  try {
    read_npy("/nonexistent/funcspec/x.npy");
    FAIL() << "expected a CaseError";
  } catch (const CaseError& e) {
    EXPECT_EQ(e.file(), "/nonexistent/funcspec/x.npy");
  }
}

TEST(Base64, EncodesTheRfcExamples) {
  auto encode = [](std::string_view s) {
    return base64_encode({reinterpret_cast<const std::uint8_t*>(s.data()), s.size()});
  };
  EXPECT_EQ(encode(""), "");
  EXPECT_EQ(encode("f"), "Zg==");
  EXPECT_EQ(encode("fo"), "Zm8=");
  EXPECT_EQ(encode("foo"), "Zm9v");
  EXPECT_EQ(encode("foobar"), "Zm9vYmFy");
}

TEST(Base64, DecodesTheRfcExamples) {
  auto decoded = [](std::string_view s) {
    const auto bytes = base64_decode(s);
    return bytes ? std::string(bytes->begin(), bytes->end()) : std::string("<invalid>");
  };
  EXPECT_EQ(decoded("Zg=="), "f");
  EXPECT_EQ(decoded("Zm8="), "fo");
  EXPECT_EQ(decoded("Zm9vYmFy"), "foobar");
}

TEST(Base64, RoundTripsEveryByte) {
  std::vector<std::uint8_t> all(256);
  for (int i = 0; i < 256; ++i) all[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(i);
  EXPECT_EQ(base64_decode(base64_encode(all)), all);
}

TEST(Base64, RejectsMalformedText) {
  EXPECT_FALSE(base64_decode("Zg="));   // not a multiple of 4
  EXPECT_FALSE(base64_decode("Z!=="));  // not in the alphabet
  EXPECT_FALSE(base64_decode("Zg=a"));  // padding in the middle
  EXPECT_FALSE(base64_decode("Zg==Zg=="));
}

}  // namespace
}  // namespace funcspec::conformance
