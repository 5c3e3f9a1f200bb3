// Samples of the random family. The oracle check runs a sample twice from the same seed, once with
// float32/float64 inputs and once with the oracle dtype, so it compares the float draws of
// NOTE: [portable distributions] with the oracle's draws of the same bits. Ops whose dtype comes
// from an attribute (rand, randn, randint) draw in that dtype in both runs and must agree exactly.
#include <limits>

#include "conformance/samples/op_samples.h"

namespace funcspec::samples {
namespace {

std::vector<OpSample> creation_samples(DType floating) {
  return {
      {{}, {{"size", Shape{2, 3}}, {"dtype", floating}}, "2x3"},
      {{}, {{"size", Shape{}}, {"dtype", floating}}, "rank 0"},
      {{}, {{"size", Shape{0, 4}}, {"dtype", floating}}, "size-0 dim"},
      {{}, {{"size", Shape{7}}}, "default dtype"},
  };
}

// Inputs whose values the op ignores (only shape and dtype matter).
std::vector<OpSample> shape_donor_samples(DType floating, SampleRng& rng, const Attrs& attrs) {
  return {
      {{rng.tensor({2, 3}, floating)}, attrs, "2x3"},
      {{rng.strided_tensor({3, 4}, floating, -2, 2)}, attrs, "3x4 transposed"},
      {{rng.tensor({}, floating)}, attrs, "rank 0"},
      {{rng.tensor({0, 4}, floating)}, attrs, "size-0 dim"},
  };
}

}  // namespace

void register_random_samples(OpSampleRegistry& registry) {
  registry.add({"rand", [](DType floating, SampleRng&) { return creation_samples(floating); }, {}, ""});
  registry.add({"randn", [](DType floating, SampleRng&) { return creation_samples(floating); }, {}, ""});
  registry.add(
      {"randint",
       [](DType floating, SampleRng&) {
         return std::vector<OpSample>{
             {{}, {{"low", std::int64_t{-3}}, {"high", std::int64_t{5}}, {"size", Shape{4, 5}}}, "int64 [-3, 5)"},
             {{},
              {{"low", std::int64_t{0}}, {"high", std::int64_t{1000}}, {"size", Shape{6}}, {"dtype", floating}},
              "floating dtype"},
             {{},
              {{"low", std::int64_t{0}}, {"high", std::int64_t{2}}, {"size", Shape{}}, {"dtype", DType::Bool}},
              "bool, rank 0"},
             {{}, {{"low", std::int64_t{1}}, {"high", std::int64_t{3}}, {"size", Shape{3, 0}}}, "size-0 dim"},
         };
       },
       {},
       ""});
  // bernoulli decides U * 2^-64 < p exactly for every dtype of p, so every dtype agrees exactly.
  registry.add({"bernoulli",
                [](DType floating, SampleRng& rng) {
                  return std::vector<OpSample>{
                      {{rng.tensor({4, 5}, floating, 0, 1)}, {}, "4x5"},
                      {{rng.strided_tensor({3, 4}, floating, 0, 1)}, {}, "3x4 transposed"},
                      {{rng.tensor({}, floating, 0, 1)}, {}, "rank 0"},
                      {{rng.tensor({2, 0}, floating, 0, 1)}, {}, "size-0 dim"},
                      {{from_values({0, 1, 0, 1}, {4}, floating)}, {}, "p 0 and 1"},
                  };
                },
                {},
                ""});
  registry.add({"bernoulli.p",
                [](DType floating, SampleRng& rng) {
                  std::vector<OpSample> out = shape_donor_samples(floating, rng, {{"p", 0.3}});
                  out.push_back({{rng.tensor({3, 2}, DType::Int64)}, {{"p", 0.7}}, "int64 self"});
                  out.push_back({{rng.tensor({5}, DType::Bool)}, {}, "bool self, default p"});
                  return out;
                },
                {},
                ""});
  // normal: mean + std * z with one rounding (fma). The float64 z (portable log/cos, each within
  // 2 ulps, on a u1 rounded once) lies within 4 ulps of |z| of the oracle's z; |z| <= 8.6 for
  // every draw (u1 >= 2^-65), so the error is <= |std| * 8.6 * 4 eps + 0.5 ulp(result). With the
  // magnitude floored at 4 * max|input| >= 4 |std| that is <= 9.1 ulps; float32 rounds z once
  // more (0.5 ulp32 relative) and the fma once: <= 8.6 * 0.5 / 4 + 0.5 < 1.7 ulps32.
  registry.add({"normal",
                [](DType floating, SampleRng& rng) {
                  return std::vector<OpSample>{
                      {{rng.tensor({2, 3}, floating), rng.tensor({3}, floating, 0, 2)}, {}, "broadcast [2,3] with [3]"},
                      {{rng.strided_tensor({3, 4}, floating, -2, 2), rng.strided_tensor({3, 4}, floating, 0, 2)},
                       {},
                       "transposed"},
                      {{rng.tensor({}, floating), rng.tensor({}, floating, 0, 2)}, {}, "rank 0"},
                      {{rng.tensor({0, 3}, floating), rng.tensor({3}, floating, 0, 2)}, {}, "size-0 dim"},
                      {{rng.tensor({4}, floating), Tensor::wrapped_scalar(Scalar(1.5))}, {}, "literal std"},
                  };
                },
                {10.0, 2.0, 0.0, 4.0},
                ""});
  // normal_functional / normal_: mean in [0, 1.5], std in {1, 2}; same argument as normal with the
  // magnitude floored at 8 >= 4 std.
  const auto normal_like = [](DType floating, SampleRng& rng) {
    std::vector<OpSample> out = shape_donor_samples(floating, rng, {{"mean", 1.5}, {"std", 2.0}});
    out.push_back({{rng.tensor({6}, floating)}, {}, "standard"});
    return out;
  };
  registry.add({"normal_functional", normal_like, {10.0, 2.0, 8.0, 0.0}, ""});
  registry.add({"normal_", normal_like, {10.0, 2.0, 8.0, 0.0}, ""});
  // uniform: from + (to - from) * u with one rounding; the float64 u is the oracle's truncated
  // (< 2^-53 = eps/2 apart), float32's by < 2^-24 = eps32; (to - from) rounds once. With |to -
  // from| <= 4 = the magnitude floor: <= (4 * 1.5 eps + 0.5 eps * 4) / (4 eps) = 2 ulps.
  const auto uniform_like = [](DType floating, SampleRng& rng) {
    std::vector<OpSample> out = shape_donor_samples(floating, rng, {{"from", -1.25}, {"to", 2.5}});
    out.push_back({{rng.tensor({6}, floating)}, {}, "[0, 1)"});
    return out;
  };
  registry.add({"uniform", uniform_like, {2.5, 2.5, 4.0, 0.0}, ""});
  registry.add({"uniform_", uniform_like, {2.5, 2.5, 4.0, 0.0}, ""});
  // exponential: e / lambd. The float64 e lies within 4 ulps of the oracle's, relatively (u1 or
  // 1 - u1 rounded once, the portable log within 2 ulps, Goldberg's product and quotient); the
  // division rounds once: <= 4.5 ulps. float32 rounds the float64 e and the quotient: <= 1 ulp32
  // and a float64-sized remainder. No magnitude floor: the draws near 0 are held to this too.
  const auto exponential_like = [](DType floating, SampleRng& rng) {
    std::vector<OpSample> out = shape_donor_samples(floating, rng, {{"lambd", 2.5}});
    out.push_back({{rng.tensor({6}, floating)}, {}, "rate 1"});
    out.push_back(
        {{rng.tensor({3}, floating)}, {{"lambd", std::numeric_limits<double>::infinity()}}, "infinite rate (zeros)"});
    // The rejected rate and dtype are case files (errors/exponential--*): a random primitive under
    // vmap's randomness='error' refuses to draw before it reads its arguments.
    return out;
  };
  registry.add({"exponential", exponential_like, {5.0, 1.5, 0.0, 0.0}, ""});
  registry.add({"exponential_", exponential_like, {5.0, 1.5, 0.0, 0.0}, ""});
  registry.add({"bernoulli_",
                [](DType floating, SampleRng& rng) {
                  std::vector<OpSample> out = shape_donor_samples(floating, rng, {{"p", 0.25}});
                  out.push_back({{rng.tensor({3, 2}, DType::Int64)}, {}, "int64 self, default p"});
                  return out;
                },
                {},
                ""});
  // multinomial computes in double for every dtype, so equal weights give equal indices.
  registry.add(
      {"multinomial",
       [](DType floating, SampleRng& rng) {
         return std::vector<OpSample>{
             {{rng.tensor({6}, floating, 0, 1)}, {{"num_samples", std::int64_t{4}}}, "1-D without replacement"},
             {{rng.tensor({3, 5}, floating, 0, 1)},
              {{"num_samples", std::int64_t{8}}, {"replacement", true}},
              "2-D with replacement"},
             {{rng.strided_tensor({4, 3}, floating, 0.1, 1)}, {{"num_samples", std::int64_t{3}}}, "transposed, all"},
             {{from_values({0, 2, 0, 1, 1}, {5}, floating)}, {{"num_samples", std::int64_t{3}}}, "zero weights"},
             {{rng.tensor({0, 3}, floating, 0, 1)}, {{"num_samples", std::int64_t{2}}}, "size-0 rows"},
         };
       },
       {},
       ""});
}

}  // namespace funcspec::samples
