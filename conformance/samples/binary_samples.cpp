// Samples of the binary elementwise ops. Tolerances (ulps of the result, see OracleTolerance):
//   - correctly rounded ops state 0.5: add and sub (one fma), mul, div in every rounding mode, remainder
//     (fmod is exact, then at most one addition), maximum, minimum, clamp, where;
//   - atan2 and pow are glibc functions within 1 ulp; measured below 1 over seeds 1..8 and the
//     default seed, stated 2;
//   - comparisons and logical ops have bool results, compared exactly.
// Literal operands are chosen exactly representable in float32, so that converting them to the
// sample dtype does not count as kernel error against the oracle.
#include <cmath>
#include <limits>

#include "conformance/samples/op_samples.h"

namespace funcspec::samples {
namespace {

Tensor lit(const Scalar& value) { return Tensor::wrapped_scalar(value); }

// Every pair of special values: a column against a row, broadcast to 8x8.
std::pair<Tensor, Tensor> special_pairs(DType floating) {
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  const std::initializer_list<double> values = {nan, inf, -inf, 0.0, -0.0, 1.0, -1.5, 2.0};
  return {from_values(values, {8, 1}, floating), from_values(values, {1, 8}, floating)};
}

struct BinaryDomain {
  double lo = -2.0;
  double hi = 2.0;
  // Second operand's range (divisors, exponents).
  double other_lo = -2.0;
  double other_hi = 2.0;
  // Whether int64 samples may hold negative second operands (pow rejects them on cpu, a
  // data-dependent error that meta cannot see).
  bool negative_int_other = true;
  // Whether to sample a literal operand. Only literals that need no conversion in the float64
  // samples are used, so ops that convert every literal (the logical ops, to bool) go without.
  bool literal_other = true;
};

std::vector<OpSample> binary_samples(DType floating, SampleRng& rng, const BinaryDomain& d, const Attrs& attrs) {
  const auto [special_a, special_b] = special_pairs(floating);
  const Tensor same = rng.tensor({6}, floating, d.lo, d.hi);
  std::vector<OpSample> samples = {
      {{rng.tensor({2, 3}, floating, d.lo, d.hi), rng.tensor({3}, floating, d.other_lo, d.other_hi)},
       attrs,
       "broadcast [2,3] with [3]"},
      {{rng.tensor({4, 1}, floating, d.lo, d.hi), rng.tensor({1, 5}, floating, d.other_lo, d.other_hi)},
       attrs,
       "broadcast [4,1] with [1,5]"},
      {{rng.tensor({64}, floating, d.lo, d.hi), rng.tensor({64}, floating, d.other_lo, d.other_hi)}, attrs, "64 pairs"},
      {{rng.strided_tensor({3, 4}, floating, d.lo, d.hi), rng.tensor({3, 4}, floating, d.other_lo, d.other_hi)},
       attrs,
       "transposed self"},
      {{rng.tensor({5}, floating, d.lo, d.hi), rng.strided_tensor({5}, floating, d.other_lo, d.other_hi)},
       attrs,
       "stride-2 other"},
      {{rng.tensor({}, floating, d.lo, d.hi), rng.tensor({}, floating, d.other_lo, d.other_hi)}, attrs, "rank 0"},
      {{rng.tensor({0, 3}, floating, d.lo, d.hi), rng.tensor({3}, floating, d.other_lo, d.other_hi)},
       attrs,
       "size-0 dim"},
      {{rng.tensor({2, 3}, floating, d.lo, d.hi), rng.tensor({3}, DType::Int64, 1, 4)}, attrs, "float with int64"},
      {{same, same}, attrs, "ties (self is other)"},
      {{special_a, special_b}, attrs, "NaN, infinities, signed zeros"},
      {{rng.tensor({2, 3}, DType::Int64, -9, 9), rng.tensor({3}, DType::Int64, 1, 5)}, attrs, "int64"},
      {{rng.tensor({5}, DType::Bool), rng.tensor({5}, DType::Bool)}, attrs, "bool"},
      {{rng.tensor({5}, DType::Bool), from_values({1, 3, 2, 1, 2}, {5}, DType::Int64)}, attrs, "bool with int64"},
  };
  if (d.literal_other)
    samples.push_back({{rng.tensor({4}, floating, d.lo, d.hi), lit(1.5)}, attrs, "float literal other"});
  if (d.negative_int_other) {
    samples.push_back({{rng.tensor({2, 3}, DType::Int64, -9, 9), from_values({-3, -1, 2}, {3}, DType::Int64)},
                       attrs,
                       "int64, negative other"});
  }
  return samples;
}

void add_binary(OpSampleRegistry& registry, const std::string& op, BinaryDomain domain, OracleTolerance tolerance,
                std::vector<Attrs> variants = {Attrs{}}) {
  registry.add({op,
                [domain, variants](DType floating, SampleRng& rng) {
                  std::vector<OpSample> all;
                  for (const Attrs& attrs : variants) {
                    for (OpSample& s : binary_samples(floating, rng, domain, attrs)) {
                      if (!attrs.values().empty()) s.label += " (" + attrs.to_string() + ")";
                      all.push_back(std::move(s));
                    }
                  }
                  return all;
                },
                tolerance, ""});
}

std::vector<OpSample> where_samples(DType floating, SampleRng& rng) {
  return {
      {{rng.tensor({2, 3}, DType::Bool), rng.tensor({2, 3}, floating), rng.tensor({2, 3}, floating)}, {}, "2x3"},
      {{rng.tensor({3, 1}, DType::Bool), rng.tensor({4}, floating), rng.tensor({1, 4}, floating)},
       {},
       "all three broadcast"},
      {{rng.strided_tensor({3, 4}, DType::Bool, 0, 1), rng.strided_tensor({3, 4}, floating, -2, 2),
        rng.tensor({3, 4}, floating)},
       {},
       "transposed condition and self"},
      {{rng.tensor({}, DType::Bool), rng.tensor({}, floating), rng.tensor({}, floating)}, {}, "rank 0"},
      {{rng.tensor({0, 2}, DType::Bool), rng.tensor({2}, floating), rng.tensor({0, 2}, floating)}, {}, "size-0 dim"},
      {{rng.tensor({4}, DType::Bool), rng.tensor({4}, floating), lit(2.5)}, {}, "float literal other"},
      {{rng.tensor({4}, DType::Bool), rng.tensor({4}, DType::Int64, -5, 5), rng.tensor({4}, floating)},
       {},
       "int64 with float"},
      {{rng.tensor({4}, floating), rng.tensor({4}, floating), rng.tensor({4}, floating)},
       {},
       "float condition (rejected)"},
  };
}

std::vector<OpSample> clamp_samples(DType floating, SampleRng& rng) {
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  return {
      {{rng.tensor({2, 3}, floating), rng.tensor({3}, floating, -2, -0.5), rng.tensor({2, 1}, floating, 0.5, 2)},
       {},
       "both bounds, broadcast"},
      {{rng.tensor({5}, floating), rng.tensor({5}, floating)}, {}, "min only"},
      {{rng.tensor({5}, floating), Tensor(), rng.tensor({5}, floating)}, {}, "max only"},
      {{rng.tensor({6}, floating), lit(1.0), lit(-1.0)}, {}, "min > max gives max"},
      {{rng.strided_tensor({3, 4}, floating, -2, 2), lit(-0.5), lit(0.5)}, {}, "transposed self, literal bounds"},
      {{rng.tensor({}, floating), rng.tensor({}, floating, -2, 0), rng.tensor({}, floating, 0, 2)}, {}, "rank 0"},
      {{rng.tensor({0, 3}, floating), lit(-1.0), lit(1.0)}, {}, "size-0 dim"},
      {{from_values({nan, inf, -inf, 0.5, -3.0}, {5}, floating), lit(-1.0), lit(1.0)},
       {},
       "NaN and infinities in self"},
      {{from_values({0.5, 0.5, 0.5}, {3}, floating), from_values({nan, 0.0, -1.0}, {3}, floating),
        from_values({1.0, nan, 0.25}, {3}, floating)},
       {},
       "NaN bounds"},
      {{rng.tensor({4}, DType::Int64, -9, 9), lit(std::int64_t{-2}), lit(std::int64_t{3})}, {}, "int64"},
      {{rng.tensor({4}, DType::Int64, -9, 9), rng.tensor({4}, floating, -2, 2), Tensor()},
       {},
       "int64 with a float min"},
      {{rng.tensor({4}, floating)}, {}, "no bounds (rejected)"},
      {{rng.tensor({4}, DType::Bool), lit(false), lit(true)}, {}, "bool (rejected)"},
  };
}

}  // namespace

void register_binary_samples(OpSampleRegistry& registry) {
  const OracleTolerance exact{0.5, 0.5, 0.0, 0.0};
  const OracleTolerance libm{2.0, 2.0, 0.0, 0.0};
  const BinaryDomain plain{};
  // Integer samples never divide by zero: that error is data-dependent and meta cannot see it.
  const BinaryDomain divisors{-4.0, 4.0, -3.0, 3.0};

  add_binary(registry, "add", plain, exact, {Attrs{}, Attrs{{"alpha", 2.5}}});
  add_binary(registry, "sub", plain, exact, {Attrs{}, Attrs{{"alpha", 2.5}}});
  add_binary(registry, "mul", plain, exact);
  add_binary(registry, "div", divisors, exact,
             {Attrs{}, Attrs{{"rounding_mode", std::string("trunc")}}, Attrs{{"rounding_mode", std::string("floor")}}});
  add_binary(registry, "remainder", divisors, exact);
  add_binary(registry, "pow", {0.1, 3.0, -3.0, 3.0, false}, libm);
  add_binary(registry, "maximum", plain, exact);
  add_binary(registry, "minimum", plain, exact);
  add_binary(registry, "atan2", plain, libm);
  for (const char* op : {"eq", "ne", "lt", "le", "gt", "ge"}) add_binary(registry, op, plain, exact);
  BinaryDomain logical = plain;
  logical.literal_other = false;
  add_binary(registry, "logical_and", logical, exact);
  add_binary(registry, "logical_or", logical, exact);
  registry.add({"where", where_samples, exact, ""});
  registry.add({"clamp", clamp_samples, exact, ""});
  // The special-function family's binary primitives (docs/ops/special.md). xlogy and
  // special_xlog1py are a libm log (within 1 ulp) and a product; hypot is glibc's (below 1 ulp);
  // copysign is exact. Measured below 1.5 ulps over seeds 1..8, stated 4 and 2.
  const OracleTolerance chained{4.0, 4.0, 0.0, 0.0};
  add_binary(registry, "xlogy", {-2.0, 2.0, 0.05, 3.0}, chained);
  add_binary(registry, "special_xlog1py", {-2.0, 2.0, -0.9, 3.0}, chained);
  add_binary(registry, "hypot", plain, libm);
  add_binary(registry, "copysign", plain, exact);
  // logaddexp, logaddexp2 (docs/ops/binary.md): exp (or pow), log1p, the division by log 2 and the
  // sum, each within about 1 ulp of its own value: within 2 ulps of max(|result|, max|input|)
  // (input_scale 1: near a result of 0, where max is about -log 2, the error is absolute), stated 4.
  const OracleTolerance log_sum{4.0, 4.0, 0.0, 1.0};
  add_binary(registry, "logaddexp", plain, log_sum);
  add_binary(registry, "logaddexp2", plain, log_sum);
}

}  // namespace funcspec::samples
