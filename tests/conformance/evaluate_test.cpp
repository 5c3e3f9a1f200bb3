// Evaluating cases on the reference and judging the results, with expectations worked out by hand.
#include "conformance/case/evaluate.h"

#include <gtest/gtest.h>

#include <cmath>

#include "tests/conformance/case_test_support.h"

namespace funcspec::conformance {
namespace {

using testing_support::add_case_json;

Evaluation evaluate_json(const Json& j) { return evaluate_on_reference(parse_case(j, "test.json", ".")); }

bool contains(const std::string& text, const std::string& fragment) { return text.find(fragment) != std::string::npos; }

// A one-input, one-op case: y = op(x) with x given inline.
Json unary_case(const std::string& op, const Json& x, const Json& y) {
  Json j = add_case_json();
  j["inputs"] = Json{{"x", x}};
  j["program"] = Json::array({Json{{"out", {"y"}}, {"op", op}, {"args", {"x"}}}});
  j["expect"]["values"] = Json{{"y", y}};
  return j;
}

Json f64(const Shape& shape, const Json& data) { return Json{{"dtype", "float64"}, {"shape", shape}, {"data", data}}; }

TEST(Evaluate, AddCasePasses) {
  const Evaluation ev = evaluate_json(add_case_json());
  EXPECT_EQ(ev.verdict, Verdict::Pass) << ev.reason;
  EXPECT_EQ(ev.max_abs_error, 0.0);
}

TEST(Evaluate, WrongExpectationFailsNamingTheElement) {
  Json j = add_case_json();
  j["expect"]["values"]["y"]["data"][4] = 3.5;  // the right value is 3
  const Evaluation ev = evaluate_json(j);
  EXPECT_EQ(ev.verdict, Verdict::Fail);
  EXPECT_TRUE(contains(ev.reason, "result 'y': 1 of 6 elements differ; first at [1, 1]: expected 3.5, got 3"))
      << ev.reason;
  EXPECT_EQ(ev.max_abs_error, 0.5);
}

TEST(Evaluate, DifferenceWithinAtolPasses) {
  Json j = add_case_json();
  j["expect"]["values"]["y"]["data"][0] = 2.0 + 1e-10;
  j["expect"]["tolerance"] = Json{{"atol", 1e-9}};
  const Evaluation ev = evaluate_json(j);
  EXPECT_EQ(ev.verdict, Verdict::Pass) << ev.reason;
  EXPECT_GT(ev.max_abs_error, 0.0);  // the error is reported even on a pass
  EXPECT_EQ(ev.tolerance.atol, 1e-9);
}

TEST(Evaluate, DifferenceBeyondRtolFails) {
  Json j = add_case_json();
  j["expect"]["values"]["y"]["data"][5] = 26.1;
  j["expect"]["tolerance"] = Json{{"rtol", 1e-3}};  // allows 0.026 at 26
  EXPECT_EQ(evaluate_json(j).verdict, Verdict::Fail);
}

TEST(Evaluate, OneUlpPassesWithAnUlpTolerance) {
  Json j = add_case_json();
  j["expect"]["values"]["y"]["data"][5] = std::nextafter(26.0, 30.0);
  j["expect"]["tolerance"] = Json{{"ulps", 1}};
  const Evaluation ev = evaluate_json(j);
  EXPECT_EQ(ev.verdict, Verdict::Pass) << ev.reason;
  EXPECT_EQ(ev.max_ulp_error, 1.0);
}

TEST(Evaluate, PerValueToleranceOverridesTheDefault) {
  Json j = add_case_json();
  j["expect"]["values"]["y"]["data"][5] = 26.5;
  j["expect"]["values"]["y"]["tolerance"] = Json{{"atol", 1}};
  EXPECT_EQ(evaluate_json(j).verdict, Verdict::Pass);
}

TEST(Evaluate, NanEqualsNan) {
  const Json j = unary_case("sqrt", f64({3}, {-1, 4, "nan"}), f64({3}, {"nan", 2, "nan"}));
  const Evaluation ev = evaluate_json(j);
  EXPECT_EQ(ev.verdict, Verdict::Pass) << ev.reason;
}

TEST(Evaluate, NanAgainstANumberFails) {
  const Json j = unary_case("sqrt", f64({2}, {-1, 4}), f64({2}, {0, 2}));
  const Evaluation ev = evaluate_json(j);
  EXPECT_EQ(ev.verdict, Verdict::Fail);
  EXPECT_TRUE(std::isinf(ev.max_abs_error));
}

TEST(Evaluate, InfinitiesOfOppositeSignDiffer) {
  const Json j = unary_case("neg", f64({1}, {"inf"}), f64({1}, {"inf"}));
  EXPECT_EQ(evaluate_json(j).verdict, Verdict::Fail);
}

// A relative tolerance scales with the expected value, so an infinite expected value would bound
// every error: a finite result, or the opposite infinity, must fail all the same.
TEST(Evaluate, AnInfinityIsMetOnlyByItselfWhateverTheTolerance) {
  for (const Json& got : {Json(1e300), Json("inf"), Json("nan")}) {
    Json j = unary_case("neg", f64({2}, {1, got}), f64({2}, {-1, "inf"}));
    j["expect"]["tolerance"] = Json{{"atol", 1e-6}, {"rtol", 1e-3}, {"ulps", 4}};
    const Evaluation ev = evaluate_json(j);
    EXPECT_EQ(ev.verdict, Verdict::Fail) << "neg(" << got.dump() << ") against inf: " << ev.reason;
    EXPECT_TRUE(std::isinf(ev.max_abs_error));
  }
  Json j = unary_case("neg", f64({1}, {"-inf"}), f64({1}, {"inf"}));
  j["expect"]["tolerance"] = Json{{"rtol", 1e-3}};
  EXPECT_EQ(evaluate_json(j).verdict, Verdict::Pass);
}

TEST(Evaluate, NegativeZeroEqualsZero) {
  const Json j = unary_case("neg", f64({1}, {0.0}), f64({1}, {0.0}));
  EXPECT_EQ(evaluate_json(j).verdict, Verdict::Pass);
}

TEST(Evaluate, ShapeMustMatchExactly) {
  const Json j = unary_case("neg", f64({2}, {1, 2}), f64({1, 2}, {-1, -2}));
  const Evaluation ev = evaluate_json(j);
  EXPECT_EQ(ev.verdict, Verdict::Fail);
  EXPECT_TRUE(contains(ev.reason, "has shape [2] but the case expects [1, 2]")) << ev.reason;
}

TEST(Evaluate, DtypeMustMatchExactly) {
  const Json y = Json{{"dtype", "float32"}, {"shape", {2}}, {"data", {-1, -2}}};
  const Evaluation ev = evaluate_json(unary_case("neg", f64({2}, {1, 2}), y));
  EXPECT_EQ(ev.verdict, Verdict::Fail);
  EXPECT_TRUE(contains(ev.reason, "has dtype float64 but the case expects float32")) << ev.reason;
}

TEST(Evaluate, IntegerResultsCompareExactly) {
  const Json x = Json{{"dtype", "int64"}, {"shape", {2}}, {"data", {9007199254740993, -4}}};
  const Json y = Json{{"dtype", "int64"}, {"shape", {2}}, {"data", {-9007199254740993, 4}}};
  EXPECT_EQ(evaluate_json(unary_case("neg", x, y)).verdict, Verdict::Pass);
  Json off_by_one = y;
  off_by_one["data"][0] = -9007199254740992;  // the same double, a different int64
  EXPECT_EQ(evaluate_json(unary_case("neg", x, off_by_one)).verdict, Verdict::Fail);
}

TEST(Evaluate, RankZeroAndEmptyTensors) {
  EXPECT_EQ(evaluate_json(unary_case("neg", f64({}, 2.5), f64({}, {-2.5}))).verdict, Verdict::Pass);
  EXPECT_EQ(evaluate_json(unary_case("neg", f64({0, 3}, Json::array()), f64({0, 3}, Json::array()))).verdict,
            Verdict::Pass);
}

TEST(Evaluate, ExpectedErrorKindPasses) {
  Json j = add_case_json();
  j["inputs"]["w"] = f64({4}, {1, 2, 3, 4});
  j["expect"] = Json{{"error", "shape_mismatch"}};
  const Evaluation ev = evaluate_json(j);
  EXPECT_EQ(ev.verdict, Verdict::Pass) << ev.reason;
  EXPECT_EQ(ev.result.error, ErrorKind::ShapeMismatch);
}

TEST(Evaluate, DifferentErrorKindFailsNamingBoth) {
  Json j = add_case_json();
  j["inputs"]["w"] = f64({4}, {1, 2, 3, 4});
  j["expect"] = Json{{"error", "dim_out_of_range"}};
  const Evaluation ev = evaluate_json(j);
  EXPECT_EQ(ev.verdict, Verdict::Fail);
  EXPECT_TRUE(contains(ev.reason, "expected the error dim_out_of_range but got shape_mismatch: [add]")) << ev.reason;
}

TEST(Evaluate, ExpectedErrorThatDoesNotHappenFails) {
  Json j = add_case_json();
  j["expect"] = Json{{"error", "shape_mismatch"}};
  const Evaluation ev = evaluate_json(j);
  EXPECT_EQ(ev.verdict, Verdict::Fail);
  EXPECT_TRUE(contains(ev.reason, "but the program returned its results")) << ev.reason;
}

TEST(Evaluate, UnexpectedErrorFailsWithItsMessage) {
  Json j = add_case_json();
  j["program"] = Json::parse(R"([{"out": ["y"], "op": "sum", "args": ["x"], "attrs": {"dim": [2]}}])");
  j["expect"]["values"]["y"] = f64({2}, {6, 15});
  const Evaluation ev = evaluate_json(j);
  EXPECT_EQ(ev.verdict, Verdict::Fail);
  EXPECT_TRUE(contains(ev.reason, "the program raised dim_out_of_range")) << ev.reason;
}

TEST(Evaluate, LiteralIsAWrappedNumberInPromotion) {
  // int64 + a float literal: the literal lifts the result to the default float dtype, float32.
  Json j = add_case_json();
  j["inputs"] = Json{{"x", {{"dtype", "int64"}, {"shape", {2}}, {"data", {1, 2}}}}, {"w", {{"literal", 2.5}}}};
  j["program"][0]["attrs"] = Json::object();
  j["expect"]["values"]["y"] = Json{{"dtype", "float32"}, {"shape", {2}}, {"data", {3.5, 4.5}}};
  const Evaluation ev = evaluate_json(j);
  EXPECT_EQ(ev.verdict, Verdict::Pass) << ev.reason;
}

TEST(Evaluate, PermutedLayoutIsNonContiguousWithTheSameValues) {
  TensorSpec spec = parse_tensor(Json::parse(R"({"dtype": "float64", "shape": [2, 3], "data": [1, 2, 3, 4, 5, 6],
                                                 "layout": {"permute": [1, 0]}})"),
                                 "x", "test.json", ".");
  const Tensor x = materialize_tensor(spec);
  EXPECT_FALSE(x.is_contiguous());
  EXPECT_EQ(x.strides(), (Strides{1, 2}));  // a [3, 2] buffer viewed transposed
  EXPECT_EQ(x.to_vector<double>(), (std::vector<double>{1, 2, 3, 4, 5, 6}));
}

TEST(Evaluate, SlicedLayoutLeavesNanInTheGaps) {
  TensorSpec spec = parse_tensor(Json::parse(R"({"dtype": "float64", "shape": [2, 2], "data": [1, 2, 3, 4],
                                                 "layout": {"slice": {"start": [1, 0], "step": [1, 2]}}})"),
                                 "x", "test.json", ".");
  const Tensor x = materialize_tensor(spec);
  // The buffer is [3, 3]: row 0 unused, x's elements at columns 0 and 2 of rows 1 and 2.
  EXPECT_EQ(x.strides(), (Strides{3, 2}));
  EXPECT_EQ(x.storage_offset(), 3);
  EXPECT_EQ(x.to_vector<double>(), (std::vector<double>{1, 2, 3, 4}));
  const double* buffer = static_cast<const double*>(x.storage()->data());
  EXPECT_TRUE(std::isnan(buffer[0]));
  EXPECT_TRUE(std::isnan(buffer[4]));
  EXPECT_EQ(buffer[5], 2.0);
}

TEST(Evaluate, NonContiguousInputsGiveTheSameResults) {
  Json j = add_case_json();
  j["inputs"]["x"]["layout"] = Json::parse(R"({"permute": [1, 0], "slice": {"start": [1, 2], "step": [3, 2]}})");
  j["inputs"]["w"]["layout"] = Json::parse(R"({"slice": {"start": [1], "step": [2]}})");
  const Evaluation ev = evaluate_json(j);
  EXPECT_EQ(ev.verdict, Verdict::Pass) << ev.reason;
}

TEST(Evaluate, EmptyInputWithALayout) {
  Json x = f64({0, 2}, Json::array());
  x["layout"] = Json::parse(R"({"permute": [1, 0], "slice": {"start": [1, 1], "step": [2, 2]}})");
  EXPECT_EQ(evaluate_json(unary_case("neg", x, f64({0, 2}, Json::array()))).verdict, Verdict::Pass);
}

Json rand_case(std::uint64_t seed) {
  Json j = add_case_json();
  j["seed"] = seed;
  j["inputs"] = Json::object();
  j["program"] = Json::parse(R"([{"out": ["r"], "op": "rand", "attrs": {"size": [5], "dtype": "float64"}}])");
  j["outputs"] = {"r"};
  j["expect"]["values"] = Json{{"r", f64({5}, {0, 0, 0, 0, 0})}};
  return j;
}

TEST(Evaluate, RandomOpsAreReproducibleFromTheSeed) {
  const ProgramResult first = run_on_reference(parse_case(rand_case(5), "r.json", "."));
  const ProgramResult again = run_on_reference(parse_case(rand_case(5), "r.json", "."));
  const ProgramResult other = run_on_reference(parse_case(rand_case(6), "r.json", "."));
  ASSERT_EQ(first.outputs.size(), 1u);
  EXPECT_EQ(first.outputs[0].second, again.outputs[0].second);
  EXPECT_NE(first.outputs[0].second, other.outputs[0].second);
}

TEST(Evaluate, RandomCaseWithRecordedValuesPassesOnReplay) {
  Json j = rand_case(11);
  const ProgramResult recorded = run_on_reference(parse_case(j, "r.json", "."));
  j["expect"]["values"]["r"] = tensor_to_json(TensorSpec{recorded.outputs.at(0).second, "", false, {}});
  EXPECT_EQ(evaluate_json(j).verdict, Verdict::Pass);
}

TEST(Evaluate, CudaCasesAreUnsupportedInProcess) {
  Json j = add_case_json();
  j["device"] = "cuda";
  const Evaluation ev = evaluate_json(j);
  EXPECT_EQ(ev.verdict, Verdict::Unsupported);
  EXPECT_TRUE(ev.reason.find("reference-cuda backend") != std::string::npos) << ev.reason;
}

TEST(Evaluate, VmapCasesRunOnTheReference) {
  Json j = add_case_json();  // y = x + 2*w with x [2, 3] and w [3]
  j["transforms"] = Json::parse(R"([{"transform": "vmap", "in_dims": {"x": 0}, "out_dims": 0}])");
  const Evaluation ev = evaluate_json(j);
  EXPECT_EQ(ev.verdict, Verdict::Pass) << ev.reason;
}

TEST(Evaluate, TensorListResultCountMustMatchTheNames) {
  Json j = add_case_json();
  j["program"] =
      Json::parse(R"([{"out": ["a", "b"], "op": "split", "args": ["x"], "attrs": {"split_size": 1, "dim": 1}}])");
  j["outputs"] = {"a"};
  j["expect"]["values"] = Json{{"a", f64({2, 1}, {1, 4})}};
  const Evaluation ev = evaluate_json(j);
  EXPECT_EQ(ev.verdict, Verdict::Fail);
  EXPECT_TRUE(contains(ev.reason, "program[0]: split returned 3 tensors but 'out' names 2")) << ev.reason;
}

TEST(Evaluate, TensorListResultsAreNamedInOrder) {
  Json j = add_case_json();
  j["program"] =
      Json::parse(R"([{"out": ["a", "b"], "op": "split", "args": ["x"], "attrs": {"split_size": 2, "dim": 1}}])");
  j["outputs"] = {"b", "a"};
  j["expect"]["values"] = Json{{"a", f64({2, 2}, {1, 2, 4, 5})}, {"b", f64({2, 1}, {3, 6})}};
  const Evaluation ev = evaluate_json(j);
  EXPECT_EQ(ev.verdict, Verdict::Pass) << ev.reason;
}

TEST(Evaluate, InPlaceStepsAreSeenByLaterSteps) {
  Json j = add_case_json();
  j["program"] = Json::parse(R"([{"out": ["x2"], "op": "add_", "args": ["x", "w"]},
                                 {"out": ["y"], "op": "clone", "args": ["x"]}])");
  j["expect"]["values"]["y"] = f64({2, 3}, {1.5, 1, 13, 4.5, 4, 16});
  const Evaluation ev = evaluate_json(j);
  EXPECT_EQ(ev.verdict, Verdict::Pass) << ev.reason;
}

TEST(Evaluate, MetaResultsCannotBeCompared) {
  Json j = add_case_json();
  j["inputs"] = Json::object();
  j["program"] = Json::parse(R"([{"out": ["y"], "op": "zeros", "attrs": {"size": [2], "device": "meta"}}])");
  j["expect"]["values"] = Json{{"y", f64({2}, {0, 0})}};
  const Evaluation ev = evaluate_json(j);
  EXPECT_EQ(ev.verdict, Verdict::Fail);
  EXPECT_TRUE(contains(ev.reason, "result 'y': a meta tensor has no values")) << ev.reason;
}

}  // namespace
}  // namespace funcspec::conformance

namespace funcspec::conformance {
namespace {

TEST(Evaluate, CaseBuiltInCodeWithAnUndefinedNameFailsInsteadOfCrashing) {
  Case c = parse_case(testing_support::add_case_json(), "test.json", ".");
  c.program[0].args[1] = "undefined";
  const Evaluation ev = evaluate_on_reference(c);
  EXPECT_EQ(ev.verdict, Verdict::Fail);
  EXPECT_TRUE(ev.reason.starts_with("evaluation stopped by an unexpected exception")) << ev.reason;
}

}  // namespace
}  // namespace funcspec::conformance
