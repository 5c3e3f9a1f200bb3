#include <gtest/gtest.h>

#include "reference/core/error.h"
#include "reference/ops/schema.h"

namespace funcspec {
namespace {

TEST(ParseSchema, SplitsInputsFromAttributes) {
  const OpSchema s =
      parse_schema("sum(Tensor self, int[]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor");
  EXPECT_EQ(s.name, "sum");
  ASSERT_EQ(s.tensor_args().size(), 1u);
  EXPECT_EQ(s.tensor_args()[0]->name, "self");
  ASSERT_EQ(s.attr_args().size(), 3u);
  EXPECT_TRUE(s.attr_args()[0]->optional);
  EXPECT_TRUE(s.attr_args()[2]->keyword_only);
  EXPECT_EQ(s.returns.size(), 1u);
}

TEST(ParseSchema, ReadsAliasAndMutationAnnotations) {
  const OpSchema s = parse_schema("copy_(Tensor(a!) self, Tensor src) -> Tensor(a!)");
  EXPECT_TRUE(s.args[0].mutated);
  EXPECT_EQ(s.args[0].alias, "a");
  EXPECT_FALSE(s.args[1].mutated);
  EXPECT_EQ(s.returns[0].alias, "a");
}

TEST(ParseSchema, ReadsNamedTupleReturnsAndListDefaults) {
  const OpSchema s =
      parse_schema("sort(Tensor self, int[] dims=[0, -1], float eps=1e-05) -> (Tensor values, Tensor indices)");
  ASSERT_EQ(s.returns.size(), 2u);
  EXPECT_EQ(s.returns[1].name, "indices");
  EXPECT_EQ(std::get<std::vector<std::int64_t>>(*s.args[1].default_value), (std::vector<std::int64_t>{0, -1}));
  EXPECT_DOUBLE_EQ(std::get<double>(*s.args[2].default_value), 1e-05);
}

TEST(ParseSchema, PrintsWhatItParsed) {
  const std::string text = "add(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor";
  EXPECT_EQ(parse_schema(text).to_string(), text);
}

TEST(ParseSchema, RejectsUnknownTypes) { EXPECT_THROW(parse_schema("f(Tensor x, complex y) -> Tensor"), Error); }

TEST(BindAttrs, FillsDefaultsAndCoerces) {
  const OpSchema s =
      parse_schema("f(Tensor x, int[]? dim=None, float eps=1e-05, Scalar alpha=1, ScalarType? dtype=None) -> Tensor");
  const Attrs bound = bind_attrs(
      s, {{"dim", std::int64_t{1}}, {"eps", std::int64_t{2}}, {"alpha", 2.5}, {"dtype", std::string("float64")}});
  EXPECT_EQ(bound.get_int_list("dim"), (std::vector<std::int64_t>{1}));  // an int where a list is declared
  EXPECT_DOUBLE_EQ(bound.get_float("eps"), 2.0);
  EXPECT_EQ(bound.get_scalar("alpha"), Scalar(2.5));
  EXPECT_EQ(bound.get_dtype("dtype"), DType::Float64);
  const Attrs defaults = bind_attrs(s, {});
  EXPECT_TRUE(defaults.is_none("dim"));
  EXPECT_DOUBLE_EQ(defaults.get_float("eps"), 1e-05);
}

TEST(BindAttrs, FloatListsTakeNumbersAndListsOfThem) {
  const OpSchema s = parse_schema("f(Tensor x, *, float[]? scale=None, float[] factors=[1.5, 2]) -> Tensor");
  EXPECT_EQ(s.to_string(), "f(Tensor x, *, float[]? scale=None, float[] factors=[1.5, 2]) -> Tensor");
  EXPECT_EQ(bind_attrs(s, {}).get_float_list("factors"), (std::vector<double>{1.5, 2.0}));
  EXPECT_TRUE(bind_attrs(s, {}).is_none("scale"));
  // One number is a list of one, and integers read as floats.
  EXPECT_EQ(bind_attrs(s, {{"scale", 2.5}}).get_float_list("scale"), (std::vector<double>{2.5}));
  EXPECT_EQ(bind_attrs(s, {{"scale", std::int64_t{2}}}).get_float_list("scale"), (std::vector<double>{2.0}));
  EXPECT_EQ(bind_attrs(s, {{"scale", std::vector<std::int64_t>{1, 3}}}).get_float_list("scale"),
            (std::vector<double>{1.0, 3.0}));
  EXPECT_EQ(bind_attrs(s, {{"scale", std::vector<double>{0.5, 1.25}}}).get_float_list("scale"),
            (std::vector<double>{0.5, 1.25}));
  EXPECT_THROW(bind_attrs(s, {{"scale", std::string("2")}}), Error);
}

TEST(BindAttrs, UnknownNameListsTheKnownOnes) {
  const OpSchema s = parse_schema("f(Tensor x, bool keepdim=False) -> Tensor");
  try {
    bind_attrs(s, {{"keep_dim", true}});
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::InvalidArgument);
    EXPECT_NE(std::string(e.what()).find("unknown attribute 'keep_dim' (the op takes: keepdim)"), std::string::npos)
        << e.what();
  }
}

TEST(BindAttrs, RejectsWrongTypesAndMissingRequired) {
  const OpSchema s = parse_schema("f(Tensor x, int dim, bool flag=False) -> Tensor");
  EXPECT_THROW(bind_attrs(s, {{"flag", true}}), Error);                                       // dim missing
  EXPECT_THROW(bind_attrs(s, {{"dim", 1.5}}), Error);                                         // a float for an int
  EXPECT_THROW(bind_attrs(s, {{"dim", std::int64_t{0}}, {"flag", std::int64_t{1}}}), Error);  // an int for a bool
  EXPECT_THROW(bind_attrs(s, {{"dim", std::monostate{}}}), Error);                            // None for a non-optional
}

}  // namespace
}  // namespace funcspec
