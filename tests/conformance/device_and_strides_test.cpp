// Meta cases (dtype and shape only) and inputs laid out by explicit strides, including expanded
// (stride 0) inputs: the parts of the case format that locate a tensor rather than give its values.
#include <gtest/gtest.h>

#include "conformance/case/evaluate.h"
#include "tests/conformance/case_test_support.h"

namespace funcspec::conformance {
namespace {

using testing_support::add_case_json;
using testing_support::parse_error_of;

Json meta_add_case() {
  Json j = add_case_json();
  j["device"] = "meta";
  j["inputs"]["x"] = Json{{"dtype", "float32"}, {"shape", {2, 3}}};
  j["inputs"]["w"] = Json{{"dtype", "float64"}, {"shape", {3}}};
  j["expect"] = Json{{"values", {{"y", {{"dtype", "float64"}, {"shape", {2, 3}}}}}}};
  return j;
}

TEST(MetaCases, CompareDtypeAndShapeOnly) {
  const Evaluation ev = evaluate_on_reference(parse_case(meta_add_case(), "meta.json", "."));
  EXPECT_EQ(ev.verdict, Verdict::Pass) << ev.reason;
}

TEST(MetaCases, AWrongShapeFails) {
  Json j = meta_add_case();
  j["expect"]["values"]["y"]["shape"] = {3, 2};
  const Evaluation ev = evaluate_on_reference(parse_case(j, "meta.json", "."));
  EXPECT_EQ(ev.verdict, Verdict::Fail);
  EXPECT_NE(ev.reason.find("float64 [3, 2]"), std::string::npos) << ev.reason;
}

TEST(MetaCases, ExpectedValuesWithDataAreRefused) {
  Json j = meta_add_case();
  j["expect"]["values"]["y"]["data"] = {1, 2, 3, 4, 5, 6};
  EXPECT_EQ(parse_error_of(j).json_path(), "expect.values.y");
}

TEST(MetaCases, CpuCasesStillNeedValues) {
  Json j = add_case_json();
  j["inputs"]["x"].erase("data");
  EXPECT_EQ(parse_error_of(j).json_path(), "inputs.x");
}

TEST(MetaCases, DeviceRoundTripsAndUnknownDevicesAreRefused) {
  const Case c = parse_case(meta_add_case(), "meta.json", ".");
  EXPECT_EQ(c.device, Device::Meta);
  EXPECT_EQ(case_to_json(parse_case(case_to_json(c), "again.json", ".")), case_to_json(c));
  Json j = add_case_json();
  j["device"] = "tpu";
  EXPECT_EQ(parse_error_of(j).json_path(), "device");
}

TEST(MetaCases, CudaCasesAreUnsupportedInProcess) {
  Json j = add_case_json();
  j["device"] = "cuda";
  EXPECT_EQ(evaluate_on_reference(parse_case(j, "cuda.json", ".")).verdict, Verdict::Unsupported);
}

TEST(StridedLayouts, ExplicitStridesGiveTheSameValues) {
  Json j = add_case_json();
  j["inputs"]["x"]["layout"] = Json{{"strides", {1, 2}}, {"offset", 3}};  // column-major, offset into a buffer
  const Case c = parse_case(j, "s.json", ".");
  const Tensor x = materialize_tensor(std::get<TensorSpec>(c.inputs[0].value));
  EXPECT_EQ(x.strides(), (Strides{1, 2}));
  EXPECT_EQ(x.storage_offset(), 3);
  EXPECT_EQ(x.to_vector<double>(), (std::vector<double>{1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(evaluate_on_reference(c).verdict, Verdict::Pass);
  EXPECT_EQ(case_to_json(parse_case(case_to_json(c), "again.json", ".")), case_to_json(c));
}

TEST(StridedLayouts, StrideZeroExpandsEqualValues) {
  Json j = add_case_json();
  j["inputs"]["x"]["data"] = {1, 2, 3, 1, 2, 3};
  j["inputs"]["x"]["layout"] = Json{{"strides", {0, 1}}};
  j["expect"]["values"]["y"]["data"] = {2, 0, 23, 2, 0, 23};
  const Case c = parse_case(j, "s.json", ".");
  EXPECT_EQ(materialize_tensor(std::get<TensorSpec>(c.inputs[0].value)).storage()->numel(), 3);
  EXPECT_EQ(evaluate_on_reference(c).verdict, Verdict::Pass);
}

TEST(StridedLayouts, OverlappingElementsWithDifferentValuesAreRefused) {
  Json j = add_case_json();
  j["inputs"]["x"]["layout"] = Json{{"strides", {0, 1}}};  // rows share memory but 1,2,3 != 4,5,6
  const CaseError e = parse_error_of(j);
  EXPECT_EQ(e.json_path(), "inputs.x.layout.strides");
  EXPECT_NE(e.problem().find("same memory"), std::string::npos);
}

TEST(StridedLayouts, StridesExcludePermuteAndNegativeStrides) {
  Json j = add_case_json();
  j["inputs"]["x"]["layout"] = Json{{"strides", {3, 1}}, {"permute", {1, 0}}};
  EXPECT_EQ(parse_error_of(j).json_path(), "inputs.x.layout");
  j["inputs"]["x"]["layout"] = Json{{"strides", {-1, 1}}};
  EXPECT_EQ(parse_error_of(j).json_path(), "inputs.x.layout.strides[0]");
  j["inputs"]["x"]["layout"] = Json{{"strides", {1}}};
  EXPECT_EQ(parse_error_of(j).json_path(), "inputs.x.layout.strides");
}

TEST(StridedLayouts, HugeStridesAreRefusedBeforeAllocating) {
  Json j = add_case_json();
  j["inputs"]["x"]["layout"] = Json{{"strides", {std::int64_t{1} << 40, 1}}};
  EXPECT_EQ(parse_error_of(j).json_path(), "inputs.x.layout");
}

}  // namespace
}  // namespace funcspec::conformance
