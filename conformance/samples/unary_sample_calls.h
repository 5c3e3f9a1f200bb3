#pragma once
// The sample calls every elementwise op of one tensor gets (the unary family and the activation
// functions): ordinary, transposed and strided layouts, rank 0, a size-0 dim, NaN, infinities and
// signed zeros, and the int64 and bool inputs the op accepts or must reject, once per attribute set.
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "conformance/samples/op_samples.h"

namespace funcspec::samples {

inline Tensor special_values(DType floating) {
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  return from_values({nan, inf, -inf, 0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 3.5}, {10}, floating);
}

struct UnaryDomain {
  double lo = -2.0;
  double hi = 2.0;
  bool takes_integers = true;  // int64 and bool inputs are accepted (possibly converted)
  bool takes_bool = true;
};

inline std::vector<OpSample> unary_samples(DType floating, SampleRng& rng, const UnaryDomain& domain,
                                           const Attrs& attrs) {
  const double lo = domain.lo, hi = domain.hi;
  std::vector<OpSample> out = {
      {{rng.tensor({2, 3}, floating, lo, hi)}, attrs, "2x3"},
      {{rng.tensor({64}, floating, lo, hi)}, attrs, "64 values"},
      {{rng.tensor({64}, floating, -2.0, 2.0)}, attrs, "64 values in [-2, 2]"},
      {{rng.strided_tensor({3, 4}, floating, lo, hi)}, attrs, "transposed 3x4"},
      {{rng.strided_tensor({5}, floating, lo, hi)}, attrs, "stride-2 rank 1"},
      {{rng.tensor({}, floating, lo, hi)}, attrs, "rank 0"},
      {{rng.tensor({0, 3}, floating, lo, hi)}, attrs, "size-0 dim"},
      {{special_values(floating)}, attrs, "NaN, infinities, signed zeros"},
  };
  // Rejected dtypes are sampled too: cpu, meta and the oracle must raise the same error.
  out.push_back({{rng.tensor({4}, DType::Int64, -3, 4)}, attrs, domain.takes_integers ? "int64" : "int64 (rejected)"});
  out.push_back({{rng.tensor({4}, DType::Bool)}, attrs, domain.takes_bool ? "bool" : "bool (rejected)"});
  return out;
}

// Every sample is generated once per attribute set in `variants`.
inline void add_unary(OpSampleRegistry& registry, const std::string& op, UnaryDomain domain, OracleTolerance tolerance,
                      std::vector<Attrs> variants = {Attrs{}}) {
  registry.add({op,
                [domain, variants](DType floating, SampleRng& rng) {
                  std::vector<OpSample> all;
                  for (const Attrs& attrs : variants) {
                    for (OpSample& s : unary_samples(floating, rng, domain, attrs)) {
                      if (!attrs.values().empty()) s.label += " (" + attrs.to_string() + ")";
                      all.push_back(std::move(s));
                    }
                  }
                  return all;
                },
                tolerance, ""});
}

}  // namespace funcspec::samples
