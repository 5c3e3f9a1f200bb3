// Reading and writing case files: round trips and every kind of malformed input.
#include "conformance/case/case_json.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>

#include "conformance/case/npy.h"
#include "tests/conformance/case_test_support.h"

namespace funcspec::conformance {
namespace {

using testing_support::add_case_json;
using testing_support::parse_error_of;
using testing_support::scratch_dir;

const TensorSpec& input_tensor(const Case& c, const std::string& name) {
  return std::get<TensorSpec>(c.find_input(name)->value);
}

TEST(CaseJson, ParsesTheFieldsOfAnAddCase) {
  const Case c = parse_case(add_case_json(), "add.json", ".");
  EXPECT_EQ(c.id, "OPS-VALUES/add/broadcast-2x3-3");
  EXPECT_EQ(c.clauses, std::vector<std::string>{"OPS-1.1"});
  EXPECT_EQ(c.seed, 7u);
  EXPECT_EQ(c.tier, Tier::Smoke);
  ASSERT_EQ(c.inputs.size(), 2u);
  EXPECT_EQ(c.inputs[0].name, "x");  // declaration order is kept: it is the argument order
  EXPECT_EQ(input_tensor(c, "w").data.shape, (Shape{3}));
  EXPECT_EQ(input_tensor(c, "w").data.element_as_double(1), -1.0);
  ASSERT_EQ(c.program.size(), 1u);
  EXPECT_EQ(c.program[0].attrs.get_scalar("alpha"), Scalar(std::int64_t{2}));
  EXPECT_EQ(c.expect.values.at(0).name, "y");
}

TEST(CaseJson, WriteThenParseReproducesTheJson) {
  const Case c = parse_case(add_case_json(), "add.json", ".");
  const Json written = case_to_json(c);
  EXPECT_EQ(case_to_json(parse_case(written, "again.json", ".")), written);
}

TEST(CaseJson, Float64ValuesRoundTripBitForBit) {
  Json j = add_case_json();
  const std::vector<double> awkward = {0.1, 1.0 / 3.0, std::nextafter(1.0, 2.0), 5e-324, -0.0, 1.7976931348623157e308};
  j["inputs"]["w"] = Json{{"dtype", "float64"}, {"shape", {6}}, {"data", awkward}};
  j["inputs"]["x"] = Json{{"dtype", "float64"}, {"shape", {6}}, {"data", awkward}};
  j["expect"]["values"]["y"] = Json{{"dtype", "float64"}, {"shape", {6}}, {"data", awkward}};
  const Case c = parse_case_text(write_case_text(parse_case(j, "a.json", ".")));
  const TensorData& w = input_tensor(c, "w").data;
  for (std::size_t i = 0; i < awkward.size(); ++i)
    EXPECT_EQ(std::bit_cast<std::uint64_t>(w.element_as_double(static_cast<std::int64_t>(i))),
              std::bit_cast<std::uint64_t>(awkward[i]))
        << "element " << i;
}

TEST(CaseJson, Float32ValuesRoundTripBitForBit) {
  const std::vector<float> awkward = {0.1f, 1.0f / 3.0f, std::nextafter(1.0f, 2.0f), 1e-45f, -0.0f, 3.4028235e38f};
  Json j = add_case_json();
  std::vector<double> as_double(awkward.begin(), awkward.end());
  j["inputs"]["w"] = Json{{"dtype", "float32"}, {"shape", {6}}, {"data", as_double}};
  const Case once = parse_case(j, "a.json", ".");
  const Case twice = parse_case_text(write_case_text(once));
  const TensorData& w = input_tensor(twice, "w").data;
  for (std::size_t i = 0; i < awkward.size(); ++i)
    EXPECT_EQ(std::bit_cast<std::uint32_t>(static_cast<float>(w.element_as_double(static_cast<std::int64_t>(i)))),
              std::bit_cast<std::uint32_t>(awkward[i]))
        << "element " << i;
  EXPECT_EQ(w, input_tensor(once, "w").data);
}

TEST(CaseJson, SpecialFloatsAreSpelledAsStrings) {
  Json j = add_case_json();
  j["inputs"]["w"] = Json{{"dtype", "float64"}, {"shape", {4}}, {"data", {"nan", "inf", "-inf", "0x1.8p+1"}}};
  const Case c = parse_case(j, "a.json", ".");
  const TensorData& w = input_tensor(c, "w").data;
  EXPECT_TRUE(std::isnan(w.element_as_double(0)));
  EXPECT_EQ(w.element_as_double(1), std::numeric_limits<double>::infinity());
  EXPECT_EQ(w.element_as_double(2), -std::numeric_limits<double>::infinity());
  EXPECT_EQ(w.element_as_double(3), 3.0);
  EXPECT_EQ(case_to_json(c)["inputs"]["w"]["data"], Json({"nan", "inf", "-inf", 3.0}));
}

TEST(CaseJson, NestedDataFollowsTheShape) {
  Json j = add_case_json();
  j["inputs"]["x"]["data"] = Json::parse("[[1, 2, 3], [4, 5, 6]]");
  EXPECT_EQ(input_tensor(parse_case(j, "a.json", "."), "x").data,
            input_tensor(parse_case(add_case_json(), "a.json", "."), "x").data);
}

TEST(CaseJson, Base64DataRoundTrips) {
  Json j = add_case_json();
  // 1.5 and -2 as little-endian float64: 00..00 f8 3f and 00..00 00 c0.
  j["inputs"]["w"] = Json{{"dtype", "float64"}, {"shape", {2}}, {"base64", "AAAAAAAA+D8AAAAAAAAAwA=="}};
  j["program"][0]["args"] = {"w", "w"};
  j["expect"]["values"]["y"] = Json{{"dtype", "float64"}, {"shape", {2}}, {"data", {4.5, -6}}};
  const Case c = parse_case(j, "a.json", ".");
  EXPECT_EQ(input_tensor(c, "w").data.element_as_double(0), 1.5);
  EXPECT_EQ(input_tensor(c, "w").data.element_as_double(1), -2.0);
  EXPECT_EQ(case_to_json(c)["inputs"]["w"]["base64"], "AAAAAAAA+D8AAAAAAAAAwA==");
}

TEST(CaseJson, LiteralsKeepTheirCategory) {
  Json j = add_case_json();
  j["inputs"]["w"] = Json{{"literal", 2}};
  j["inputs"]["f"] = Json{{"literal", 2.0}};
  j["inputs"]["b"] = Json{{"literal", true}};
  j["expect"]["values"]["y"]["data"] = {5, 6, 7, 8, 9, 10};
  const Case c = parse_case(j, "a.json", ".");
  EXPECT_TRUE(std::get<LiteralSpec>(c.find_input("w")->value).value.is_integral());
  EXPECT_TRUE(std::get<LiteralSpec>(c.find_input("f")->value).value.is_floating());
  EXPECT_TRUE(std::get<LiteralSpec>(c.find_input("b")->value).value.is_bool());
  EXPECT_EQ(case_to_json(parse_case(case_to_json(c), "b.json", ".")), case_to_json(c));
}

TEST(CaseJson, LayoutsRoundTrip) {
  Json j = add_case_json();
  j["inputs"]["x"]["layout"] = Json::parse(R"({"permute": [1, 0], "slice": {"start": [1, 0], "step": [2, 3]}})");
  const Case c = parse_case(j, "a.json", ".");
  const TensorLayout& layout = input_tensor(c, "x").layout;
  EXPECT_EQ(layout.permute, (std::vector<std::int64_t>{1, 0}));
  EXPECT_EQ(layout.slice_step, (std::vector<std::int64_t>{2, 3}));
  EXPECT_EQ(input_tensor(parse_case(case_to_json(c), "b.json", "."), "x").layout, layout);
}

TEST(CaseJson, EveryTransformRoundTrips) {
  Json j = add_case_json();
  j["program"] = Json::parse(R"([{"out": ["y"], "op": "add", "args": ["x", "w"]},
                                 {"out": ["s"], "op": "sum", "args": ["y"]}])");
  j["outputs"] = {"s"};
  j["transforms"] = Json::parse(R"([
    {"transform": "vmap", "in_dims": [0, null], "out_dims": 0, "randomness": "same", "chunk_size": 2},
    {"transform": "functionalize", "remove": "mutations_and_views"},
    {"transform": "grad", "argnums": ["x"], "has_aux": false}
  ])");
  j["expect"]["values"] =
      Json::parse(R"json({"grad(s, x)": {"dtype": "float64", "shape": [2, 3], "data": [1, 1, 1, 1, 1, 1]}})json");
  const Case c = parse_case(j, "a.json", ".");
  ASSERT_EQ(c.transforms.size(), 3u);
  EXPECT_EQ(transform_name(c.transforms[0]), "vmap");
  const auto& vmap = std::get<VmapTransform>(c.transforms[0]);
  EXPECT_EQ(vmap.randomness, Randomness::Same);
  EXPECT_EQ(vmap.chunk_size, 2);
  EXPECT_EQ(vmap.in_dims.by_position.at(1), std::nullopt);
  EXPECT_EQ(case_to_json(parse_case(case_to_json(c), "b.json", ".")), case_to_json(c));
}

// Builds a case over y = sum(x * w) with the given transforms, expecting `results` (each a [2, 3]
// tensor of ones; only the names matter to the parser).
Json transformed_case(const Json& transforms, const std::vector<std::string>& results) {
  Json j = add_case_json();
  j["program"] = Json::parse(R"([{"out": ["p"], "op": "mul", "args": ["x", "w"]},
                                 {"out": ["s"], "op": "sum", "args": ["p"]}])");
  j["outputs"] = {"s", "p"};
  j["transforms"] = transforms;
  j["expect"]["values"] = Json::object();
  for (const std::string& r : results)
    j["expect"]["values"][r] = Json{{"dtype", "float64"}, {"shape", {0}}, {"data", Json::array()}};
  return j;
}

TEST(CaseJson, ResultNamesFollowTheTransformStackInnermostFirst) {
  const Json tensor = Json{{"dtype", "float64"}, {"shape", {0}}, {"data", Json::array()}};
  struct Example {
    Json transforms;
    std::vector<std::string> results;
  };
  const std::vector<Example> examples = {
      {Json::array(), {"s", "p"}},
      {Json::parse(R"([{"transform": "grad_and_value", "argnums": [0, "w"], "has_aux": true}])"),
       {"grad(s, x)", "grad(s, w)", "s", "p"}},
      {Json::parse(R"([{"transform": "jacrev", "argnums": 1}])"), {"jac(s, w)", "jac(p, w)"}},
      {Json::parse(R"([{"transform": "jacfwd", "argnums": 0, "has_aux": true}])"), {"jac(s, x)", "p"}},
      {Json{{{"transform", "vjp"}, {"cotangents", {{"s", tensor}, {"p", tensor}}}}}, {"s", "p", "vjp(x)", "vjp(w)"}},
      {Json{{{"transform", "jvp"}, {"tangents", {{"x", tensor}}}, {"has_aux", true}}}, {"s", "p", "jvp(s)"}},
      {Json{{{"transform", "linearize"}, {"tangents", {{"w", tensor}}}}}, {"s", "p", "jvp(s)", "jvp(p)"}},
      {Json::parse(R"([{"transform": "hessian", "argnums": ["x"]}, {"transform": "grad", "has_aux": true}])"),
       {"hess(grad(s, x), x, x)", "hess(p, x, x)"}},
      {Json::parse(R"([{"transform": "grad", "argnums": 0, "has_aux": true},
                       {"transform": "functional_call", "parameters": ["w"], "buffers": []}])"),
       {"grad(s, w)", "p"}},
  };
  for (const Example& e : examples) {
    const Case c = parse_case(transformed_case(e.transforms, e.results), "t.json", ".");
    EXPECT_EQ(result_names(c), e.results) << e.transforms.dump();
  }
}

// --- malformed input ---

TEST(CaseJsonErrors, InvalidJsonNamesTheFile) {
  try {
    parse_case_text("{\"format\": ", "broken.json");
    FAIL() << "expected a CaseError";
  } catch (const CaseError& e) {
    EXPECT_EQ(e.file(), "broken.json");
    EXPECT_NE(e.problem().find("invalid JSON"), std::string::npos) << e.what();
  }
}

TEST(CaseJsonErrors, UnknownFormatVersion) {
  Json j = add_case_json();
  j["format"] = "funcspec-case/9";
  EXPECT_EQ(parse_error_of(j).json_path(), "format");
}

TEST(CaseJsonErrors, UnknownTopLevelField) {
  Json j = add_case_json();
  j["expected"] = 1;
  const CaseError e = parse_error_of(j);
  EXPECT_NE(e.problem().find("unknown field 'expected'"), std::string::npos) << e.what();
}

TEST(CaseJsonErrors, UnknownDtypeNamesItsPath) {
  Json j = add_case_json();
  j["inputs"]["w"]["dtype"] = "float16";
  const CaseError e = parse_error_of(j);
  EXPECT_EQ(e.json_path(), "inputs.w.dtype");
  EXPECT_NE(e.problem().find("float16"), std::string::npos) << e.what();
  EXPECT_NE(std::string(e.what()).find("test.json at inputs.w.dtype"), std::string::npos) << e.what();
}

TEST(CaseJsonErrors, OracleDtypeIsNotACaseDtype) {
  Json j = add_case_json();
  j["inputs"]["w"]["dtype"] = "oracle";
  EXPECT_EQ(parse_error_of(j).json_path(), "inputs.w.dtype");
}

TEST(CaseJsonErrors, DataCountMustMatchTheShape) {
  Json j = add_case_json();
  j["inputs"]["x"]["data"] = {1, 2, 3, 4, 5};
  const CaseError e = parse_error_of(j);
  EXPECT_EQ(e.json_path(), "inputs.x.data");
  EXPECT_NE(e.problem().find("has 5 values but shape [2, 3] needs 6"), std::string::npos) << e.what();
}

TEST(CaseJsonErrors, NestedDataMustMatchTheShape) {
  Json j = add_case_json();
  j["inputs"]["x"]["data"] = Json::parse("[[1, 2], [3, 4], [5, 6]]");
  EXPECT_EQ(parse_error_of(j).json_path(), "inputs.x.data");
}

TEST(CaseJsonErrors, ElementOfTheWrongTypeNamesItsIndex) {
  Json j = add_case_json();
  j["inputs"]["x"]["data"][4] = "five";
  EXPECT_EQ(parse_error_of(j).json_path(), "inputs.x.data[4]");
}

TEST(CaseJsonErrors, IntegerDataRejectsFloats) {
  Json j = add_case_json();
  j["inputs"]["w"] = Json{{"dtype", "int64"}, {"shape", {3}}, {"data", {1, 2.5, 3}}};
  EXPECT_EQ(parse_error_of(j).json_path(), "inputs.w.data[1]");
}

TEST(CaseJsonErrors, Float32OverflowIsRejected) {
  Json j = add_case_json();
  j["inputs"]["w"] = Json{{"dtype", "float32"}, {"shape", {1}}, {"data", {1e300}}};
  EXPECT_EQ(parse_error_of(j).json_path(), "inputs.w.data[0]");
}

TEST(CaseJsonErrors, NameUsedBeforeDefinition) {
  Json j = add_case_json();
  j["program"] = Json::parse(R"([{"out": ["y"], "op": "add", "args": ["x", "z"]},
                                 {"out": ["z"], "op": "neg", "args": ["x"]}])");
  const CaseError e = parse_error_of(j);
  EXPECT_EQ(e.json_path(), "program[0].args[1]");
  EXPECT_NE(e.problem().find("'z' is used before it is defined"), std::string::npos) << e.what();
}

TEST(CaseJsonErrors, NamesAreDefinedOnce) {
  Json j = add_case_json();
  j["program"][0]["out"] = {"x"};
  EXPECT_EQ(parse_error_of(j).json_path(), "program[0].out[0]");
}

TEST(CaseJsonErrors, UndefinedOutput) {
  Json j = add_case_json();
  j["outputs"] = {"y", "q"};
  EXPECT_EQ(parse_error_of(j).json_path(), "outputs[1]");
}

TEST(CaseJsonErrors, UnknownOpName) {
  Json j = add_case_json();
  j["program"][0]["op"] = "addd";
  const CaseError e = parse_error_of(j);
  EXPECT_EQ(e.json_path(), "program[0].op");
  EXPECT_NE(e.problem().find("unknown op 'addd'"), std::string::npos) << e.what();
}

TEST(CaseJsonErrors, WrongNumberOfTensorInputs) {
  Json j = add_case_json();
  j["program"][0]["args"] = {"x"};
  EXPECT_EQ(parse_error_of(j).json_path(), "program[0].args");
}

TEST(CaseJsonErrors, WrongNumberOfOutNames) {
  Json j = add_case_json();
  j["program"][0]["out"] = {"y", "y2"};
  EXPECT_EQ(parse_error_of(j).json_path(), "program[0].out");
}

TEST(CaseJsonErrors, AttributeOfTheWrongType) {
  Json j = add_case_json();
  j["program"] = Json::parse(R"([{"out": ["y"], "op": "sum", "args": ["x"], "attrs": {"dim": "rows"}}])");
  const CaseError e = parse_error_of(j);
  EXPECT_EQ(e.json_path(), "program[0].attrs.dim");
  EXPECT_NE(e.problem().find("attribute 'dim' of sum"), std::string::npos) << e.what();
}

TEST(CaseJsonErrors, IntListAttributeRejectsFloats) {
  Json j = add_case_json();
  j["program"] = Json::parse(R"([{"out": ["y"], "op": "sum", "args": ["x"], "attrs": {"dim": [0, 1.5]}}])");
  EXPECT_EQ(parse_error_of(j).json_path(), "program[0].attrs.dim[1]");
}

TEST(CaseJsonErrors, UnknownAttribute) {
  Json j = add_case_json();
  j["program"][0]["attrs"] = {{"beta", 1}};
  EXPECT_EQ(parse_error_of(j).json_path(), "program[0].attrs.beta");
}

TEST(CaseJsonErrors, MissingRequiredAttribute) {
  Json j = add_case_json();
  j["program"] = Json::parse(R"([{"out": ["y"], "op": "to_dtype", "args": ["x"]}])");
  EXPECT_EQ(parse_error_of(j).json_path(), "program[0].attrs");
}

TEST(CaseJsonErrors, UnknownDtypeAttribute) {
  Json j = add_case_json();
  j["program"] = Json::parse(R"([{"out": ["y"], "op": "to_dtype", "args": ["x"], "attrs": {"dtype": "half"}}])");
  EXPECT_EQ(parse_error_of(j).json_path(), "program[0].attrs.dtype");
}

TEST(CaseJsonErrors, UnknownTransform) {
  Json j = add_case_json();
  j["transforms"] = Json::parse(R"([{"transform": "pmap"}])");
  const CaseError e = parse_error_of(j);
  EXPECT_EQ(e.json_path(), "transforms[0].transform");
  EXPECT_NE(e.problem().find("unknown transform 'pmap'"), std::string::npos) << e.what();
}

TEST(CaseJsonErrors, UnknownTransformField) {
  Json j = add_case_json();
  j["transforms"] = Json::parse(R"([{"transform": "vmap", "in_dim": 0}])");
  EXPECT_EQ(parse_error_of(j).json_path(), "transforms[0]");
}

TEST(CaseJsonErrors, BadRandomness) {
  Json j = add_case_json();
  j["transforms"] = Json::parse(R"([{"transform": "vmap", "randomness": "sometimes"}])");
  EXPECT_EQ(parse_error_of(j).json_path(), "transforms[0].randomness");
}

TEST(CaseJsonErrors, InDimsForTheWrongNumberOfArguments) {
  Json j = add_case_json();
  j["transforms"] = Json::parse(R"([{"transform": "vmap", "in_dims": [0, 0, 0]}])");
  EXPECT_EQ(parse_error_of(j).json_path(), "transforms[0].in_dims");
}

TEST(CaseJsonErrors, GradOfAFunctionWithTwoResultsNeedsHasAux) {
  Json j = transformed_case(Json::parse(R"([{"transform": "grad"}])"), {"grad(s, x)"});
  EXPECT_EQ(parse_error_of(j).json_path(), "transforms[0]");
}

TEST(CaseJsonErrors, ArgnumOutOfRange) {
  Json j = transformed_case(Json::parse(R"([{"transform": "jacrev", "argnums": 2}])"), {"jac(s, x)"});
  EXPECT_EQ(parse_error_of(j).json_path(), "transforms[0].argnums");
}

TEST(CaseJsonErrors, ArgnumOfALiteral) {
  Json j = add_case_json();
  j["inputs"]["w"] = Json{{"literal", 2.0}};
  j["transforms"] = Json::parse(R"([{"transform": "jacrev", "argnums": "w"}])");
  EXPECT_EQ(parse_error_of(j).json_path(), "transforms[0].argnums");
}

TEST(CaseJsonErrors, CotangentsMustMatchTheResults) {
  const Json tensor = Json{{"dtype", "float64"}, {"shape", {0}}, {"data", Json::array()}};
  Json j = transformed_case(Json{{{"transform", "vjp"}, {"cotangents", {{"s", tensor}}}}}, {"s", "p", "vjp(x)"});
  EXPECT_EQ(parse_error_of(j).json_path(), "transforms[0].cotangents");
}

TEST(CaseJsonErrors, ExpectationMustNameExactlyTheResults) {
  Json j = add_case_json();
  j["expect"]["values"]["z"] = j["expect"]["values"]["y"];
  EXPECT_EQ(parse_error_of(j).json_path(), "expect.values");
}

TEST(CaseJsonErrors, UnknownErrorKind) {
  Json j = add_case_json();
  j["expect"] = Json{{"error", "shape_mismatched"}};
  EXPECT_EQ(parse_error_of(j).json_path(), "expect.error");
}

TEST(CaseJsonErrors, ExpectationNeedsValuesOrError) {
  Json j = add_case_json();
  j["expect"]["error"] = "shape_mismatch";
  EXPECT_EQ(parse_error_of(j).json_path(), "expect");
}

TEST(CaseJsonErrors, NegativeTolerance) {
  Json j = add_case_json();
  j["expect"]["tolerance"]["atol"] = -1;
  EXPECT_EQ(parse_error_of(j).json_path(), "expect.tolerance");
}

TEST(CaseJsonErrors, BadLayoutPermutation) {
  Json j = add_case_json();
  j["inputs"]["x"]["layout"] = Json{{"permute", {0, 0}}};
  EXPECT_EQ(parse_error_of(j).json_path(), "inputs.x.layout.permute");
}

TEST(CaseJsonErrors, SliceStepMustBePositive) {
  Json j = add_case_json();
  j["inputs"]["x"]["layout"] = Json::parse(R"({"slice": {"start": [0, 0], "step": [1, 0]}})");
  EXPECT_EQ(parse_error_of(j).json_path(), "inputs.x.layout.slice.step[1]");
}

TEST(CaseJsonErrors, ShapeWhoseElementCountOverflowsIsRefused) {
  Json j = add_case_json();
  j["inputs"]["x"] = Json{{"dtype", "float64"}, {"shape", {4611686018427387904LL, 4}}, {"data", Json::array()}};
  EXPECT_EQ(parse_error_of(j).json_path(), "inputs.x.shape");
}

TEST(CaseJsonErrors, SliceReachingBeyondAnyBufferIsRefused) {
  Json j = add_case_json();
  j["inputs"]["x"]["layout"] = Json::parse(R"({"slice": {"start": [0, 0], "step": [4611686018427387904, 1]}})");
  EXPECT_EQ(parse_error_of(j).json_path(), "inputs.x.layout.slice");
}

TEST(CaseJsonErrors, NegativeSeed) {
  Json j = add_case_json();
  j["seed"] = -3;
  EXPECT_EQ(parse_error_of(j).json_path(), "seed");
}

TEST(CaseJsonErrors, MissingNpyFileNamesIt) {
  Json j = add_case_json();
  j["inputs"]["x"] = Json{{"npy", "absent.npy"}};
  const CaseError e = parse_error_of(j, scratch_dir());
  EXPECT_EQ(e.json_path(), "inputs.x.npy");
  EXPECT_NE(e.problem().find("absent.npy"), std::string::npos) << e.what();
}

TEST(CaseJsonErrors, NpyShapeDisagreeingWithTheCase) {
  const auto dir = scratch_dir();
  write_npy(dir / "x.npy", TensorData{DType::Float64, {3}, std::vector<std::uint8_t>(24, 0)});
  Json j = add_case_json();
  j["inputs"]["x"] = Json{{"npy", "x.npy"}, {"shape", {2, 3}}};
  EXPECT_EQ(parse_error_of(j, dir).json_path(), "inputs.x.shape");
}

// --- files ---

TEST(CaseFiles, WriteCaseFileWritesItsNpyFilesBesideIt) {
  const auto dir = scratch_dir();
  const std::vector<double> values = {1, 2, 3, 4, 5, 6};
  TensorData x{DType::Float64, {2, 3}, {}};
  x.bytes.resize(48);
  std::memcpy(x.bytes.data(), values.data(), 48);
  write_npy(dir / "x.npy", x);
  Json j = add_case_json();
  j["inputs"]["x"] = Json{{"npy", "x.npy"}};
  const Case c = parse_case(j, "in.json", dir);

  const auto out_dir = dir / "copy";
  std::filesystem::create_directories(out_dir);
  write_case_file(c, out_dir / "case.json");
  EXPECT_TRUE(std::filesystem::exists(out_dir / "x.npy"));
  const Case again = read_case_file(out_dir / "case.json");
  EXPECT_EQ(input_tensor(again, "x").data, x);
  EXPECT_EQ(input_tensor(again, "x").npy_file, "x.npy");
}

}  // namespace
}  // namespace funcspec::conformance
