// NOTE: [promotion tests]
// One conformance test per pair of operand categories for add, mul and div (TENSOR-2.x): each
// operand is a bool/int64/float32/float64 tensor of rank 1, a rank-0 tensor of those dtypes, or a
// bool/int/float literal. The expected dtypes come from kAddResult below, a table written out by
// hand from PyTorch's documented rule, never from the reference's result_type: a table that merely
// replayed the implementation would check nothing. Values are small dyadic numbers and every right
// operand is a power of two, so each sum, product and quotient is exact in every result dtype.
// Two literals never meet: PyTorch's ops need a tensor operand.
#include <fmt/format.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "conformance/case/case_json.h"
#include "conformance/suite/conformance_test.h"

namespace funcspec::conformance {
namespace {

enum class OperandClass { Tensor, Rank0, Literal };

struct OperandCategory {
  std::string_view name;  // in test ids
  OperandClass operand_class;
  std::string_view dtype;  // the tensor's dtype, or the literal's kind: bool, int or float
};

// The order of kAddResult's rows and columns.
constexpr std::array<OperandCategory, 11> kCategories{{
    {"bool_tensor", OperandClass::Tensor, "bool"},
    {"int64_tensor", OperandClass::Tensor, "int64"},
    {"float32_tensor", OperandClass::Tensor, "float32"},
    {"float64_tensor", OperandClass::Tensor, "float64"},
    {"bool_rank0", OperandClass::Rank0, "bool"},
    {"int64_rank0", OperandClass::Rank0, "int64"},
    {"float32_rank0", OperandClass::Rank0, "float32"},
    {"float64_rank0", OperandClass::Rank0, "float64"},
    {"bool_literal", OperandClass::Literal, "bool"},
    {"int_literal", OperandClass::Literal, "int"},
    {"float_literal", OperandClass::Literal, "float"},
}};

// The dtype of add(row, column) (mul's is the same): b bool, i int64, f float32, d float64, - never
// generated. Columns in the order of kCategories, grouped tensors | rank-0 | literals. Reading
// guide: within a class the higher dtype wins (the 4x4 blocks on the diagonal); a lower class
// counts only when its category is higher (int64_tensor + float64_rank0 is d, but
// float32_tensor + float64_rank0 stays f); a float literal counts as float32 and an int literal
// as int64 (bool_tensor + int_literal is i).
constexpr std::array<std::string_view, 11> kAddResult{{
    "bifd bifd bif",  // bool_tensor
    "iifd iifd iif",  // int64_tensor
    "fffd ffff fff",  // float32_tensor
    "dddd dddd ddd",  // float64_tensor
    "bifd bifd bif",  // bool_rank0
    "iifd iifd iif",  // int64_rank0
    "fffd fffd fff",  // float32_rank0
    "ddfd dddd ddd",  // float64_rank0
    "bifd bifd ---",  // bool_literal
    "iifd iifd ---",  // int_literal
    "fffd fffd ---",  // float_literal
}};

char table_entry(std::size_t row, std::size_t column) {
  std::size_t seen = 0;
  for (char c : kAddResult[row]) {
    if (c == ' ') continue;
    if (seen++ == column) return c;
  }
  return '-';
}

std::string_view dtype_of_entry(char entry) {
  switch (entry) {
    case 'b': return "bool";
    case 'i': return "int64";
    case 'f': return "float32";
    default: return "float64";
  }
}

// Values of an operand on the left (any) and on the right (powers of two, never zero, so that
// quotients are exact and finite). Bools are 0/1.
constexpr std::array<double, 3> left_values(std::string_view dtype) {
  if (dtype == "bool") return {1, 0, 1};
  if (dtype == "int64" || dtype == "int") return {3, -6, 0};
  if (dtype == "float32") return {1.5, -2.25, 0};
  return {0.75, -3.5, 0};  // float64, and the float literal takes the first
}
constexpr std::array<double, 3> right_values(std::string_view dtype) {
  if (dtype == "bool") return {1, 1, 1};
  if (dtype == "int64" || dtype == "int") return {2, -4, 1};
  if (dtype == "float32") return {0.5, -2, 4};
  return {0.25, 8, -1};
}

Json element_json(std::string_view dtype, double value) {
  if (dtype == "bool") return Json(value != 0);
  if (dtype == "int64" || dtype == "int") return Json(static_cast<std::int64_t>(value));
  return Json(value);
}

// The operand as a case input: a literal takes the first value, a rank-0 tensor the second (so a
// rank-0 and a rank-1 operand of one dtype are told apart), a tensor all three.
Json operand_json(const OperandCategory& category, const std::array<double, 3>& values) {
  if (category.operand_class == OperandClass::Literal)
    return Json{{"literal", element_json(category.dtype, values[0])}};
  if (category.operand_class == OperandClass::Rank0)
    return Json{{"dtype", category.dtype}, {"shape", Json::array()}, {"data", element_json(category.dtype, values[1])}};
  Json data = Json::array();
  for (double v : values) data.push_back(element_json(category.dtype, v));
  return Json{{"dtype", category.dtype}, {"shape", {3}}, {"data", data}};
}

double operand_value(const OperandCategory& category, const std::array<double, 3>& values, std::size_t i) {
  switch (category.operand_class) {
    case OperandClass::Literal: return values[0];
    case OperandClass::Rank0: return values[1];
    case OperandClass::Tensor: break;
  }
  return values[i];
}

double apply(std::string_view op, std::string_view result_dtype, double a, double b) {
  if (result_dtype == "bool") return op == "add" ? double((a != 0) || (b != 0)) : double((a != 0) && (b != 0));
  if (op == "add") return a + b;
  if (op == "mul") return a * b;
  return a / b;
}

struct PromotionOp {
  std::string_view name;
  bool true_division;
};

constexpr std::array<PromotionOp, 3> kOps{{{"add", false}, {"mul", false}, {"div", true}}};

bool is_smoke(std::string_view op, std::string_view lhs, std::string_view rhs) {
  constexpr std::array<std::array<std::string_view, 3>, 6> kSmoke{{
      {"add", "int64_tensor", "float_literal"},
      {"add", "float32_tensor", "float64_rank0"},
      {"add", "int64_tensor", "float64_rank0"},
      {"add", "bool_tensor", "int_literal"},
      {"mul", "bool_tensor", "bool_tensor"},
      {"div", "int64_tensor", "int64_tensor"},
  }};
  for (const auto& s : kSmoke)
    if (s[0] == op && s[1] == lhs && s[2] == rhs) return true;
  return false;
}

Json promotion_case(const PromotionOp& op, const OperandCategory& lhs, const OperandCategory& rhs,
                    std::string_view result_dtype, const std::string& id, const std::vector<std::string>& clauses,
                    Tier tier) {
  const auto lv = left_values(lhs.dtype);
  const auto rv = right_values(rhs.dtype);
  const bool rank1 = lhs.operand_class == OperandClass::Tensor || rhs.operand_class == OperandClass::Tensor;
  Json data = Json::array();
  for (std::size_t i = 0; i < (rank1 ? 3u : 1u); ++i)
    data.push_back(
        element_json(result_dtype, apply(op.name, result_dtype, operand_value(lhs, lv, i), operand_value(rhs, rv, i))));
  Json expected{{"dtype", result_dtype}, {"shape", rank1 ? Json{3} : Json::array()}};
  expected["data"] = rank1 ? data : data[0];
  return Json{
      {"format", kCaseFormat},
      {"id", id},
      {"clauses", clauses},
      {"description", fmt::format("{}({}, {}) has dtype {} by PyTorch's promotion rule (the table in {})", op.name,
                                  lhs.name, rhs.name, result_dtype, "conformance/suite/promotion_tests.cpp")},
      {"seed", 0},
      {"tier", tier_name(tier)},
      {"inputs", {{"a", operand_json(lhs, lv)}, {"b", operand_json(rhs, rv)}}},
      {"program", Json::array({Json{{"out", {"y"}}, {"op", op.name}, {"args", {"a", "b"}}}})},
      {"outputs", {"y"}},
      {"expect", {{"values", {{"y", expected}}}}},
  };
}

}  // namespace

void add_promotion_tests(const SuiteOptions& /*options*/, ConformanceTests& tests) {
  for (const PromotionOp& op : kOps) {
    for (std::size_t row = 0; row < kCategories.size(); ++row) {
      for (std::size_t column = 0; column < kCategories.size(); ++column) {
        const char entry = table_entry(row, column);
        if (entry == '-') continue;
        const OperandCategory& lhs = kCategories[row];
        const OperandCategory& rhs = kCategories[column];
        // True division computes in the floating counterpart of the promoted dtype (TENSOR-2.4).
        const std::string_view result_dtype =
            op.true_division && (entry == 'b' || entry == 'i') ? "float32" : dtype_of_entry(entry);

        ConformanceTest test;
        test.id = fmt::format("TENSOR-PROMOTION/{}/{}-{}", op.name, lhs.name, rhs.name);
        test.clauses = {"TENSOR-2.1"};
        if (lhs.operand_class != rhs.operand_class) test.clauses.push_back("TENSOR-2.2");
        if (lhs.operand_class == OperandClass::Literal || rhs.operand_class == OperandClass::Literal)
          test.clauses.push_back("TENSOR-2.3");
        if (op.true_division) test.clauses.push_back("TENSOR-2.4");
        test.tier = is_smoke(op.name, lhs.name, rhs.name) ? Tier::Smoke : Tier::Pr;
        test.origin = "conformance/suite/promotion_tests.cpp";
        test.build = [json = promotion_case(op, lhs, rhs, result_dtype, test.id, test.clauses, test.tier),
                      origin = test.origin] { return parse_case(json, origin, "."); };
        tests.push_back(std::move(test));
      }
    }
  }
}

}  // namespace funcspec::conformance
