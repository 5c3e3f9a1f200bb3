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

Json regions_case_json() {
  return Json::parse(R"json({
    "format": "funcspec-case/1.1",
    "id": "AD-REGIONS/mul/test",
    "inputs": {"x": {"dtype": "float64", "shape": [2], "data": [1, 2]}},
    "program": [{"out": ["c"], "op": "mul", "args": ["x", "x"], "grad_modes": ["no_grad", "enable_grad"]},
                {"out": ["p"], "op": "mul", "args": ["x", "c"]},
                {"out": ["y"], "op": "sum", "args": ["p"]}],
    "outputs": ["y"],
    "transforms": [{"transform": "grad"}],
    "expect": {"values": {"grad(y, x)": {"dtype": "float64", "shape": [2], "data": [3, 12]}}}
  })json");
}

TEST(CaseFormat11, GradModeRegionsAreReadWrittenBackAndAFeature) {
  const Case c = parse_case(regions_case_json(), "regions.json", ".");
  EXPECT_EQ(c.program.at(0).grad_modes, (std::vector<CallMode>{CallMode::NoGrad, CallMode::EnableGrad}));
  EXPECT_EQ(case_features(c), (std::vector<std::string_view>{"grad_mode_regions"}));
  const Json written = case_to_json(c);
  EXPECT_EQ(written["program"][0]["grad_modes"], Json::parse(R"(["no_grad", "enable_grad"])"));
  EXPECT_EQ(case_to_json(parse_case(written, "again.json", ".")), written);
}

TEST(CaseFormat11, GradModeRegionsAreRefusedWhereTheyMeanNothingOrTwice) {
  Json j = regions_case_json();
  j["format"] = "funcspec-case/1";
  EXPECT_EQ(parse_error_of(j).json_path(), "program[0].grad_modes");
  j = regions_case_json();
  j["program"][0]["no_grad"] = true;
  EXPECT_EQ(parse_error_of(j).json_path(), "program[0].grad_modes");
  j = regions_case_json();
  j["program"][0]["grad_modes"] = Json::parse(R"(["plain"])");
  EXPECT_EQ(parse_error_of(j).json_path(), "program[0].grad_modes[0]");
  j = regions_case_json();
  j["program"][0]["grad_modes"] = Json::array();
  EXPECT_EQ(parse_error_of(j).json_path(), "program[0].grad_modes");
  j = regions_case_json();
  j["after"] = Json::parse(
      R"({"program": [{"out": ["u"], "op": "neg", "args": ["x"], "grad_modes": ["no_grad"]}], "outputs": ["u"]})");
  EXPECT_EQ(parse_error_of(j).json_path(), "after.program[0].grad_modes");
}

TEST(CaseFormat11, TheInnermostRegionDecidesOnTheReference) {
  // with no_grad(): with enable_grad(): c = x * x  ->  c is differentiated: grad = 3 x^2.
  EXPECT_EQ(evaluate_on_reference(parse_case(regions_case_json(), "regions.json", ".")).verdict, Verdict::Pass);
  // The other nesting makes c a constant: grad = x^2.
  Json j = regions_case_json();
  j["program"][0]["grad_modes"] = Json::parse(R"(["enable_grad", "no_grad"])");
  j["expect"]["values"]["grad(y, x)"]["data"] = Json::parse("[1, 4]");
  const Evaluation e = evaluate_on_reference(parse_case(j, "regions.json", "."));
  EXPECT_EQ(e.verdict, Verdict::Pass) << e.reason;
}

Json autograd_case_json() {
  return Json::parse(R"json({
    "format": "funcspec-case/1.1",
    "id": "AD-AUTOGRAD-API/mul/test",
    "inputs": {"x": {"dtype": "float64", "shape": [3, 2], "data": [[1, 2], [3, 4], [5, 6]]}},
    "program": [{"out": ["p"], "op": "mul", "args": ["x", "x"]},
                {"out": ["y"], "op": "sum", "args": ["p"]},
                {"out": ["g"], "op": "autograd.grad", "args": ["y", "x"]}],
    "outputs": ["g"],
    "transforms": [{"transform": "vmap", "in_dims": 0}],
    "expect": {"error": "autograd_api_under_transform"}
  })json");
}

TEST(CaseFormat11, AutogradCallsAreAFeatureAndTheReferenceRefusesThem) {
  const Case c = parse_case(autograd_case_json(), "autograd.json", ".");
  EXPECT_TRUE(c.program.at(2).is_autograd_call());
  EXPECT_EQ(case_features(c), (std::vector<std::string_view>{"autograd_api"}));
  const Json written = case_to_json(c);
  EXPECT_EQ(case_to_json(parse_case(written, "again.json", ".")), written);
  EXPECT_EQ(run_on_reference(c).error, ErrorKind::AutogradApiUnderTransform);
}

TEST(CaseFormat11, AutogradCallsAreRefusedWhereTheSpecSaysNothing) {
  Json j = autograd_case_json();
  j["transforms"] = Json::array();
  EXPECT_EQ(parse_error_of(j).json_path(), "program[2].op");
  j = autograd_case_json();
  j["program"][2]["out"] = Json::parse(R"(["g", "h"])");
  EXPECT_EQ(parse_error_of(j).json_path(), "program[2].out");
  j = autograd_case_json();
  j["program"][2] = Json::parse(R"({"out": [], "op": "autograd.backward", "args": ["y", "x"]})");
  EXPECT_EQ(parse_error_of(j).json_path(), "program[2].args");
  j = autograd_case_json();
  j["format"] = "funcspec-case/1";
  EXPECT_EQ(parse_error_of(j).json_path(), "program[2].op");
}

}  // namespace
}  // namespace funcspec::conformance
