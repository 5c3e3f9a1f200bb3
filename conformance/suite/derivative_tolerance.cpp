#include "conformance/suite/derivative_tolerance.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <stdexcept>

#include "conformance/case/versioned_json.h"
#include "reference/api/ops.h"

namespace funcspec::conformance::ad {
namespace {

using ToleranceJson = nlohmann::json;

struct DerivativeTolerance {
  double atol = 0;
  double rtol = 0;
};

const ToleranceJson& tolerance_table() {
  static const ToleranceJson table =
      read_versioned_json(FUNCSPEC_AD_TOLERANCES_FILE, "funcspec-ad-tolerances/1", "the AD tolerance table");
  return table;
}

DerivativeTolerance lookup_tolerance(const std::string& check, const std::string& op, DType dtype) {
  const ToleranceJson& table = tolerance_table();
  const std::string d(dtype_name(dtype));
  const ToleranceJson* entry = nullptr;
  auto try_entry = [&](const ToleranceJson& node) {
    if (entry == nullptr && node.is_object() && node.contains(d)) entry = &node[d];
  };
  if (table.contains("ops") && table["ops"].contains(op)) {
    const ToleranceJson& per_op = table["ops"][op];
    if (per_op.contains(check)) try_entry(per_op[check]);
    if (per_op.contains("*")) try_entry(per_op["*"]);
  }
  if (table.contains("checks") && table["checks"].contains(check)) try_entry(table["checks"][check]);
  if (table.contains("default")) try_entry(table["default"]);
  if (entry == nullptr || !entry->contains("atol") || !entry->contains("rtol") || !(*entry)["atol"].is_number() ||
      !(*entry)["rtol"].is_number())
    throw std::runtime_error(fmt::format("the AD tolerance table has no usable entry for ({}, {}, {})", check, op, d));
  return {(*entry)["atol"].get<double>(), (*entry)["rtol"].get<double>()};
}

}  // namespace

// The case tolerance of an expected derivative: atol scales with the tensor's largest element.
Tolerance derivative_tolerance(const std::string& check, const std::string& op, DType dtype, const Tensor& expected) {
  const DerivativeTolerance t = lookup_tolerance(check, op, dtype);
  double scale = 1;
  for (double v : ops::to_dtype(ops::contiguous(expected), DType::Float64).to_vector<double>()) {
    if (std::isfinite(v)) scale = std::max(scale, std::abs(v));
  }
  return {t.atol * scale, t.rtol, 0};
}

}  // namespace funcspec::conformance::ad
