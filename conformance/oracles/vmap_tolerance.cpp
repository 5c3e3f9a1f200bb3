#include "conformance/oracles/vmap_tolerance.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "conformance/case/evaluate.h"
#include "conformance/oracles/value_tolerance.h"
#include "reference/core/oracle.h"

namespace funcspec::oracles {

using conformance::TensorData;
using conformance::Tolerance;

namespace {

struct ProgramBound {
  double atol;  // times max(1, max|loop|)
  double rtol;
};
// Item 3 of the NOTE.
constexpr ProgramBound kProgramBound64{1e-12, 1e-10};
constexpr ProgramBound kProgramBound32{1e-5, 1e-4};

double largest_finite_magnitude(const TensorData& truth) {
  double largest = 0;
  for (std::int64_t i = 0; i < truth.numel(); ++i) {
    const double v = truth.element_as_double(i);
    if (std::isfinite(v)) largest = std::max(largest, std::abs(v));
  }
  return largest;
}

Tolerance program_tolerance(const TensorData& truth) {
  if (truth.dtype != DType::Float32 && truth.dtype != DType::Float64)
    throw std::invalid_argument(fmt::format("no vmap tolerance for a program's {} result", dtype_name(truth.dtype)));
  const ProgramBound bound = truth.dtype == DType::Float32 ? kProgramBound32 : kProgramBound64;
  return {bound.atol * std::max(1.0, largest_finite_magnitude(truth)), bound.rtol, 0};
}

std::string element_text(const TensorData& t, std::int64_t i) {
  return is_floating(t.dtype) ? fmt::format("{}", t.element_as_double(i)) : fmt::format("{}", t.element_as_int(i));
}

bool element_agrees(const TensorData& got, const TensorData& want, std::int64_t i, const Tolerance& tolerance,
                    bool exact) {
  if (!is_floating(want.dtype)) return got.element_as_int(i) == want.element_as_int(i);
  const double g = got.element_as_double(i);
  const double w = want.element_as_double(i);
  if (std::isnan(g) || std::isnan(w)) return std::isnan(g) && std::isnan(w);
  if (std::isinf(g) || std::isinf(w) || exact) return g == w && std::signbit(g) == std::signbit(w);
  return std::abs(g - w) <= tolerance.atol + tolerance.rtol * std::abs(w);
}

}  // namespace

Tolerance vmap_oracle_tolerance(const VmapComparison& comparison, const TensorData& truth) {
  if (!is_floating(truth.dtype)) return {};
  if (std::holds_alternative<ReferenceAgainstItsLoop>(comparison)) return {};
  if (const auto* reference = std::get_if<OpAgainstReferenceLoop>(&comparison))
    return conformance::value_tolerance(reference->stated, truth.dtype, reference->inputs);
  return program_tolerance(truth);
}

Tolerance vmap_oracle_tolerance(const VmapComparison& comparison, const Tensor& truth) {
  // Only the program's bound reads the values; the others need the dtype alone.
  if (std::holds_alternative<ProgramAgainstOwnLoop>(comparison) && is_floating(truth.dtype()))
    return vmap_oracle_tolerance(comparison, conformance::tensor_data_of(truth));
  return vmap_oracle_tolerance(comparison, conformance::tensor_metadata_of(truth));
}

std::optional<std::string> vmap_difference(const TensorData& got, const TensorData& want, const Tolerance& tolerance) {
  if (tolerance.ulps != 0) throw std::invalid_argument("the vmap tolerance policy states no ulps");
  if (got.dtype != want.dtype)
    return fmt::format("dtype {} where the loop gives {}", dtype_name(got.dtype), dtype_name(want.dtype));
  if (got.shape != want.shape)
    return fmt::format("shape {} where the loop gives {}", shape_to_string(got.shape), shape_to_string(want.shape));
  const bool exact = tolerance == Tolerance{};
  for (std::int64_t i = 0; i < want.numel(); ++i) {
    if (element_agrees(got, want, i, tolerance, exact)) continue;
    return fmt::format("element {} is {} where the loop gives {} (atol {}, rtol {})", i, element_text(got, i),
                       element_text(want, i), tolerance.atol, tolerance.rtol);
  }
  return std::nullopt;
}

std::optional<std::string> vmap_difference(const Tensor& got, const Tensor& want, const Tolerance& tolerance) {
  if (got.dtype() != want.dtype() || got.shape() != want.shape())
    return vmap_difference(conformance::tensor_metadata_of(got), conformance::tensor_metadata_of(want), tolerance);
  if (want.dtype() != DType::Oracle)
    return vmap_difference(conformance::tensor_data_of(got), conformance::tensor_data_of(want), tolerance);
  // A case holds no oracle-dtype values; the engine's own comparison in that dtype is exact.
  if (tolerance != Tolerance{}) throw std::invalid_argument("oracle-dtype results are compared exactly");
  const std::vector<oracle_t> g = got.to_vector<oracle_t>();
  const std::vector<oracle_t> w = want.to_vector<oracle_t>();
  for (std::size_t i = 0; i < w.size(); ++i) {
    const bool both_nan = boost::multiprecision::isnan(g[i]) && boost::multiprecision::isnan(w[i]);
    if (both_nan || (g[i] == w[i] && boost::multiprecision::signbit(g[i]) == boost::multiprecision::signbit(w[i])))
      continue;
    return fmt::format("element {} is {} where the loop gives {} (exactly)", i, g[i].str(), w[i].str());
  }
  return std::nullopt;
}

}  // namespace funcspec::oracles
