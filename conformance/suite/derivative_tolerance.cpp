#include "conformance/suite/derivative_tolerance.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
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
      read_versioned_json(FUNCSPEC_AD_TOLERANCES_FILE, "funcspec-ad-tolerances/2", "the AD tolerance table");
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

// Where the table makes a derivative's bound relative (derivative_tolerance.h).
struct SmallValues {
  double tiny_below = 0;
  // Below this times the tensor's scale, an oracle value is taken for noise around an exact zero
  // (50 digits; finite differences with steps of 1e-20 leave about 1e-30, and their truncation
  // 1e-40 where an op is flat to second order), not a small derivative.
  double oracle_zero_below = 0;
};

SmallValues small_values() {
  const ToleranceJson& table = tolerance_table();
  const ToleranceJson* small = table.contains("small_values") ? &table["small_values"] : nullptr;
  if (small == nullptr || !small->contains("tiny_below") || !small->contains("oracle_zero_below"))
    throw std::runtime_error("the AD tolerance table has no usable small_values entry");
  return {(*small)["tiny_below"].get<double>(), (*small)["oracle_zero_below"].get<double>()};
}

}  // namespace

Tolerance derivative_tolerance(const std::string& check, const std::string& op, DType dtype, const Tensor& expected,
                               bool special_point) {
  const DerivativeTolerance t = lookup_tolerance(check, op, dtype);
  const SmallValues small = small_values();
  const std::vector<double> values = ops::to_dtype(ops::contiguous(expected), DType::Float64).to_vector<double>();
  double largest = 0;
  for (double v : values) {
    if (std::isfinite(v)) largest = std::max(largest, std::abs(v));
  }
  const double scale = std::max(1.0, largest);
  double smallest_nonzero = std::numeric_limits<double>::infinity();
  for (double v : values) {
    if (std::isfinite(v) && std::abs(v) >= small.oracle_zero_below * scale)
      smallest_nonzero = std::min(smallest_nonzero, std::abs(v));
  }
  // A tensor of tiny derivatives alone (a saturated region) is small everywhere. One that mixes tiny
  // and ordinary elements away from a declared special point keeps the ordinary bound: its ordinary
  // elements may be sums that cancel (a second derivative of logsumexp in float32), which no
  // relative bound admits, and one tolerance covers the whole tensor.
  const bool tiny_everywhere = largest < small.tiny_below && smallest_nonzero < small.tiny_below;
  const bool small_derivatives = special_point || tiny_everywhere;
  if (!small_derivatives) return {t.atol * scale, t.rtol, 0};
  return {t.atol * std::min(1.0, smallest_nonzero), t.rtol, 0};
}

}  // namespace funcspec::conformance::ad
