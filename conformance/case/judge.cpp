#include "conformance/case/judge.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

namespace funcspec::conformance {

std::string_view verdict_name(Verdict verdict) {
  switch (verdict) {
    case Verdict::Pass: return "pass";
    case Verdict::Fail: return "fail";
    case Verdict::Unsupported: return "unsupported";
    case Verdict::Error: return "error";
  }
  return "fail";
}

std::string_view fault_name(Fault fault) {
  switch (fault) {
    case Fault::None: return "none";
    case Fault::Crash: return "crash";
    case Fault::Timeout: return "timeout";
    case Fault::Protocol: return "protocol error";
  }
  return "none";
}

namespace {

// |a - e|, exact: the true distance is below 2^64, so unsigned wrap-around gives it (through
// double, 2^53 + 1 would equal 2^53).
std::uint64_t exact_distance(std::int64_t a, std::int64_t e) {
  return a >= e ? static_cast<std::uint64_t>(a) - static_cast<std::uint64_t>(e)
                : static_cast<std::uint64_t>(e) - static_cast<std::uint64_t>(a);
}

// Orders the bit patterns of a float so that adjacent floats differ by one (both zeros map to 0).
template <typename Int>
std::int64_t ordered_bits(Int bits) {
  const auto wide = static_cast<std::int64_t>(bits);
  if (bits >= 0) return wide;
  return static_cast<std::int64_t>(std::numeric_limits<Int>::min()) - wide;
}

double ulp_distance(double actual, double expected, DType dtype) {
  std::int64_t a = 0;
  std::int64_t e = 0;
  if (dtype == DType::Float32) {
    a = ordered_bits(std::bit_cast<std::int32_t>(static_cast<float>(actual)));
    e = ordered_bits(std::bit_cast<std::int32_t>(static_cast<float>(expected)));
  } else {
    a = ordered_bits(std::bit_cast<std::int64_t>(actual));
    e = ordered_bits(std::bit_cast<std::int64_t>(expected));
  }
  return static_cast<double>(exact_distance(a, e));
}

std::string index_of(std::int64_t flat, const Shape& shape) {
  Shape index(shape.size());
  for (std::size_t d = shape.size(); d-- > 0;) {
    index[d] = flat % shape[d];
    flat /= shape[d];
  }
  return shape_to_string(index);
}

struct ElementError {
  double abs = 0;
  double ulps = 0;
};

ElementError element_error(const TensorData& actual, const TensorData& expected, std::int64_t i) {
  if (!is_floating(expected.dtype)) {
    const std::int64_t a = actual.element_as_int(i);
    const std::int64_t e = expected.element_as_int(i);
    const double difference = static_cast<double>(exact_distance(a, e));
    return {difference, difference};  // an integer's unit in the last place is 1
  }
  const double a = actual.element_as_double(i);
  const double e = expected.element_as_double(i);
  constexpr double kInf = std::numeric_limits<double>::infinity();
  if (std::isnan(a) || std::isnan(e)) return std::isnan(a) && std::isnan(e) ? ElementError{} : ElementError{kInf, kInf};
  if (a == e) return {};
  if (std::isinf(a) || std::isinf(e)) return {kInf, kInf};
  return {std::abs(a - e), ulp_distance(a, e, expected.dtype)};
}

struct Comparison {
  bool passed = true;
  std::string reason;
  double max_abs = 0;
  double max_ulps = 0;
};

Comparison compare_metadata(const std::string& name, const TensorData& actual, const TensorData& expected) {
  Comparison out;
  if (actual.dtype != expected.dtype || actual.shape != expected.shape) {
    out.passed = false;
    out.reason =
        fmt::format("result '{}' is {} {} but the case expects {} {}", name, dtype_name(actual.dtype),
                    shape_to_string(actual.shape), dtype_name(expected.dtype), shape_to_string(expected.shape));
  }
  return out;
}

Comparison compare(const std::string& name, const TensorData& actual, const TensorData& expected,
                   const Tolerance& tolerance) {
  Comparison out;
  if (actual.dtype != expected.dtype) {
    out.passed = false;
    out.reason = fmt::format("result '{}' has dtype {} but the case expects {}", name, dtype_name(actual.dtype),
                             dtype_name(expected.dtype));
    return out;
  }
  if (actual.shape != expected.shape) {
    out.passed = false;
    out.reason = fmt::format("result '{}' has shape {} but the case expects {}", name, shape_to_string(actual.shape),
                             shape_to_string(expected.shape));
    return out;
  }
  std::int64_t failures = 0;
  std::int64_t first_failure = -1;
  ElementError first_error;
  for (std::int64_t i = 0; i < expected.numel(); ++i) {
    const ElementError error = element_error(actual, expected, i);
    out.max_abs = std::max(out.max_abs, error.abs);
    out.max_ulps = std::max(out.max_ulps, error.ulps);
    const double bound = tolerance.atol + tolerance.rtol * std::abs(expected.element_as_double(i));
    // An infinite error is a NaN or an infinity where the other side has something else: no
    // tolerance covers it, not even the infinite bound rtol gives an infinite expected value.
    const bool ok =
        std::isfinite(error.abs) && (error.abs <= bound || error.ulps <= static_cast<double>(tolerance.ulps));
    if (!ok && failures++ == 0) {
      first_failure = i;
      first_error = error;
    }
  }
  if (failures > 0) {
    out.passed = false;
    const bool integral = !is_floating(expected.dtype);
    auto shown = [&](const TensorData& t) {
      return integral ? fmt::format("{}", t.element_as_int(first_failure))
                      : fmt::format("{}", t.element_as_double(first_failure));
    };
    out.reason = fmt::format(
        "result '{}': {} of {} elements differ; first at {}: expected {}, got {} (abs error {} > atol {} + rtol {} * "
        "|expected|, and {} ulps > {}); max abs error {}, max ulps {}",
        name, failures, expected.numel(), index_of(first_failure, expected.shape), shown(expected), shown(actual),
        first_error.abs, tolerance.atol, tolerance.rtol, first_error.ulps, tolerance.ulps, out.max_abs, out.max_ulps);
  }
  return out;
}

}  // namespace

Evaluation judge(const Case& c, ProgramResult result) {
  Evaluation ev;
  ev.tolerance = c.expect.tolerance;
  ev.result = std::move(result);
  const ProgramResult& r = ev.result;
  auto fail = [&](std::string reason) {
    ev.verdict = Verdict::Fail;
    ev.reason = std::move(reason);
    return ev;
  };
  if (r.unsupported) {
    ev.verdict = Verdict::Unsupported;
    ev.reason = *r.unsupported;
    return ev;
  }
  if (r.fault != Fault::None) {
    ev.verdict = Verdict::Error;
    ev.reason = fmt::format("{}: {}", fault_name(r.fault), r.broken);
    return ev;
  }
  if (!r.broken.empty()) return fail(r.broken);
  if (c.expect.error) {
    const std::string_view expected = error_kind_name(*c.expect.error);
    if (!r.error) return fail(fmt::format("expected the error {} but the program returned its results", expected));
    if (*r.error != *c.expect.error)
      return fail(
          fmt::format("expected the error {} but got {}: {}", expected, error_kind_name(*r.error), r.error_message));
    ev.verdict = Verdict::Pass;
    return ev;
  }
  if (r.error)
    return fail(fmt::format("the program raised {} where values were expected: {}", error_kind_name(*r.error),
                            r.error_message));

  std::string first_reason;
  std::optional<Tolerance> failing_tolerance;
  for (const ExpectedValue& expected : c.expect.values) {
    const Tolerance tolerance = expected.tolerance.value_or(c.expect.tolerance);
    const TensorData* actual = nullptr;
    for (const auto& [name, data] : r.outputs) {
      if (name == expected.name) actual = &data;
    }
    if (actual == nullptr) {
      if (first_reason.empty()) first_reason = fmt::format("result '{}' is missing", expected.name);
      continue;
    }
    const Comparison comparison = expected.tensor.values_omitted
                                      ? compare_metadata(expected.name, *actual, expected.tensor.data)
                                      : compare(expected.name, *actual, expected.tensor.data, tolerance);
    // On a pass, the reported tolerance is the one the largest error was held to.
    if (comparison.max_abs > ev.max_abs_error || (ev.max_abs_error == 0 && expected.tolerance))
      ev.tolerance = tolerance;
    ev.max_abs_error = std::max(ev.max_abs_error, comparison.max_abs);
    ev.max_ulp_error = std::max(ev.max_ulp_error, comparison.max_ulps);
    if (!comparison.passed && first_reason.empty()) {
      first_reason = comparison.reason;
      failing_tolerance = tolerance;
    }
  }
  if (failing_tolerance) ev.tolerance = *failing_tolerance;
  if (!first_reason.empty()) return fail(first_reason);
  ev.verdict = Verdict::Pass;
  return ev;
}

}  // namespace funcspec::conformance
