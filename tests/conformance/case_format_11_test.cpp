// Case format 1.1 (docs/case-format.md, *Format 1.1*): its fields, the version they need, the
// features a backend must state, and their evaluation on the reference.
#include <gtest/gtest.h>

#include "conformance/backend/backend.h"
#include "conformance/case/case_json.h"
#include "conformance/case/evaluate.h"
#include "tests/conformance/case_test_support.h"

namespace funcspec::conformance {
namespace {

using testing_support::parse_error_of;

Json escaped_case_json() {
  return Json::parse(R"({
    "format": "funcspec-case/1.1",
    "id": "VMAP-ESCAPED/sin/test",
    "inputs": {
      "buf": {"dtype": "float64", "shape": [4], "data": [1, 2, 3, 4]},
      "a": {"alias_of": "buf", "dtype": "float64", "shape": [2], "layout": {"strides": [2], "offset": 1}}
    },
    "program": [{"out": ["s"], "op": "sin", "args": ["a"], "stored_as": "kept"}],
    "outputs": ["s"],
    "transforms": [{"transform": "vmap", "in_dims": {"a": 0}, "called_under": "no_grad"}],
    "after": {"program": [{"out": ["u"], "op": "add", "args": ["kept", "kept"]}], "outputs": ["u"]},
    "expect": {"error": "transform_escaped"}
  })");
}

TEST(CaseFormat11, FieldsAreReadAndWrittenBack) {
  const Case c = parse_case(escaped_case_json(), "escaped.json", ".");
  const CaseInput& a = *c.find_input("a");
  EXPECT_EQ(a.alias_of, "buf");
  // The alias reads its base's elements at offset + i * stride.
  EXPECT_EQ(std::get<TensorSpec>(a.value).data.element_as_double(1), 4.0);
  EXPECT_EQ(c.program.at(0).stored_as, "kept");
  EXPECT_EQ(c.call_mode(0), CallMode::NoGrad);
  EXPECT_EQ(result_names(c), (std::vector<std::string>{"s", "u"}));
  const Json written = case_to_json(c);
  EXPECT_EQ(written["format"], "funcspec-case/1.1");
  EXPECT_EQ(case_to_json(parse_case(written, "again.json", ".")), written);
  EXPECT_EQ(case_features(c), (std::vector<std::string_view>{"aliased_inputs", "stored_values", "call_modes"}));
}

TEST(CaseFormat11, AFieldOfFormat11NeedsTheVersion) {
  Json j = escaped_case_json();
  j["format"] = "funcspec-case/1";
  EXPECT_EQ(parse_error_of(j).json_path(), "inputs.a.alias_of");
}

TEST(CaseFormat11, ABackendWithoutTheFeatureGetsTheCaseUnsupported) {
  const Case c = parse_case(escaped_case_json(), "escaped.json", ".");
  Capabilities capabilities;
  capabilities.ops = {"sin", "add"};
  capabilities.transforms = {"vmap"};
  capabilities.dtypes = {DType::Float64};
  capabilities.devices = {"cpu"};
  const std::optional<std::string> missing = missing_capability(capabilities, c);
  ASSERT_TRUE(missing.has_value());
  EXPECT_NE(missing->find("aliased_inputs"), std::string::npos) << *missing;
  capabilities.features = {"aliased_inputs", "stored_values", "call_modes"};
  EXPECT_EQ(missing_capability(capabilities, c), std::nullopt);
}

TEST(CaseFormat11, TheReferenceRaisesForAnEscapedTensorAndReadsTheCallersTensorsAfterTheCall) {
  EXPECT_EQ(run_on_reference(parse_case(escaped_case_json(), "escaped.json", ".")).error, ErrorKind::TransformEscaped);
  Json j = escaped_case_json();
  // A write into the alias under vmap reaches the caller's buffer, which the after steps read.
  j["program"] = Json::parse(R"([{"out": ["s"], "op": "add_", "args": ["a", "a"]}])");
  j["after"] = Json::parse(R"({"program": [{"out": ["b"], "op": "clone", "args": ["buf"]}], "outputs": ["b"]})");
  j["expect"] = Json::parse(R"({"values": {"s": {"dtype": "float64", "shape": [2], "data": [4, 8]},
                                           "b": {"dtype": "float64", "shape": [4], "data": [1, 4, 3, 8]}}})");
  const Evaluation e = evaluate_on_reference(parse_case(j, "alias.json", "."));
  EXPECT_EQ(e.verdict, Verdict::Pass) << e.reason;
}

}  // namespace
}  // namespace funcspec::conformance
