// Samples of the activation functions (docs/ops/activation.md). The elementwise ones take the
// unary family's calls (layouts, rank 0, size 0, NaN, infinities, signed zeros, int64 and bool)
// over a range that straddles their kinks and thresholds, once per attribute set; their special
// points (special_point_declarations.cpp) put samples exactly on each kink. Tolerances, in ulps
// of the result, count the roundings of the op's formula:
//   - exact (0.5): pieces that pass x through or replace it (hardtanh, relu6, hardshrink, threshold);
//   - one rounding plus the constant's rounding to float32 (1.5): leaky_relu, softshrink, prelu's
//     x * w, softsign's x / (1 + |x|), hardsigmoid's (x + 3) / 6;
//   - hardswish's x * (x + 3) / 6: three roundings (x + 3 is exact near -3), stated 3;
//   - expm1 (1 ulp) and one or two products with constants (elu, selu, celu): stated 4;
//   - sigmoid's 4 and a product (silu, glu): stated 5; softplus's 4 through tanh (condition <= 1)
//     and a product (mish): stated 8; softmin as softmax: 8;
//   - tanhshrink's x - tanh(x) cancels near 0, as PyTorch's does: the error is measured against
//     max |x| (input_scale 1), 4 ulps of it.
#include "conformance/samples/op_samples.h"
#include "conformance/samples/unary_sample_calls.h"

namespace funcspec::samples {
namespace {

Attrs float_attrs(std::initializer_list<std::pair<const char*, double>> values) {
  Attrs attrs;
  for (const auto& [name, value] : values) attrs.set(name, value);
  return attrs;
}

std::vector<OpSample> glu_samples(DType floating, SampleRng& rng) {
  return {
      {{rng.tensor({2, 4}, floating, -4, 4)}, {{"dim", std::int64_t{-1}}}, "2x4 dim -1"},
      {{rng.tensor({4, 3}, floating, -4, 4)}, {{"dim", std::int64_t{0}}}, "4x3 dim 0"},
      {{rng.strided_tensor({6, 2}, floating, -4, 4)}, {{"dim", std::int64_t{1}}}, "transposed dim 1"},
      {{rng.tensor({2, 2, 6}, floating, -4, 4)}, {{"dim", std::int64_t{-1}}}, "rank 3"},
      {{rng.tensor({0, 4}, floating)}, {{"dim", std::int64_t{1}}}, "size-0 batch"},
      {{rng.tensor({3, 0}, floating)}, {{"dim", std::int64_t{1}}}, "halved dim of size 0"},
      {{rng.tensor({2, 3}, floating)}, {{"dim", std::int64_t{1}}}, "odd size shape-mismatch"},
      {{rng.tensor({}, floating)}, {{"dim", std::int64_t{0}}}, "rank 0 shape-mismatch"},
      {{rng.tensor({2, 4}, floating)}, {{"dim", std::int64_t{2}}}, "dim 2 of a matrix dim-out-of-range"},
      {{rng.tensor({4}, DType::Int64, -3, 4)}, {{"dim", std::int64_t{0}}}, "int64 (rejected)"},
  };
}

std::vector<OpSample> softmin_samples(DType floating, SampleRng& rng) {
  std::vector<OpSample> out = softmax_samples(floating, rng, INFINITY);
  out.push_back({{rng.tensor({4}, DType::Int64, -3, 4)}, {{"dim", std::int64_t{0}}}, "int64 (rejected)"});
  return out;
}

std::vector<OpSample> prelu_samples(DType floating, SampleRng& rng) {
  return {
      {{rng.tensor({2, 3, 4}, floating, -2, 2), rng.tensor({3}, floating, -0.5, 0.5)}, {}, "one weight per channel"},
      {{rng.tensor({2, 3}, floating, -2, 2), rng.tensor({1}, floating, -0.5, 0.5)}, {}, "one weight"},
      {{rng.strided_tensor({3, 4}, floating, -2, 2), rng.tensor({4}, floating)}, {}, "transposed, 4 channels"},
      {{rng.tensor({5}, floating, -2, 2), rng.tensor({1}, floating)}, {}, "1-d input (one channel)"},
      {{rng.tensor({}, floating, -2, 2), rng.tensor({}, floating)}, {}, "rank 0 with a rank-0 weight"},
      {{rng.tensor({0, 3}, floating), rng.tensor({3}, floating)}, {}, "size-0 batch"},
      {{rng.tensor({2, 3}, floating), rng.tensor({2}, floating)}, {}, "2 weights for 3 channels shape-mismatch"},
      {{rng.tensor({2, 3}, floating), rng.tensor({3, 1}, floating)}, {}, "2-d weight shape-mismatch"},
      {{rng.tensor({5}, floating), rng.tensor({5}, floating)}, {}, "5 weights for a 1-d input shape-mismatch"},
      {{rng.tensor({2, 3}, floating), rng.tensor({3}, DType::Int64, -3, 4)}, {}, "int64 weight (rejected)"},
      {{rng.tensor({4}, DType::Int64, -3, 4), rng.tensor({1}, DType::Int64, -3, 4)}, {}, "int64 (rejected)"},
  };
}

// rrelu draws its slopes from U(lower, upper) when training (the value checks compare the float
// draws with the oracle's draws of the same bits, as for dropout); eval is deterministic.
std::vector<OpSample> rrelu_samples(DType floating, SampleRng& rng) {
  const Attrs training{{"training", true}};
  return {
      {{rng.tensor({2, 3}, floating, -2, 2)}, training, "training"},
      {{rng.tensor({3, 4}, floating, -2, 2)},
       {{"training", true}, {"lower", 0.1}, {"upper", 0.5}},
       "training, U(0.1, 0.5)"},
      {{rng.tensor({2, 3}, floating, -2, 2)}, {}, "eval: the mean slope"},
      {{rng.tensor({2, 3}, floating, -2, 2)}, {{"lower", 0.2}, {"upper", 0.6}}, "eval, bounds 0.2 and 0.6"},
      {{rng.tensor({4}, floating, -2, 2)}, {{"training", true}, {"lower", 0.3}, {"upper", 0.3}}, "lower = upper"},
      {{rng.strided_tensor({3, 2}, floating, -2, 2)}, training, "transposed, training"},
      {{rng.tensor({}, floating, -2, 2)}, training, "rank 0"},
      {{rng.tensor({0, 3}, floating)}, training, "size-0 dim"},
      {{rng.tensor({3}, floating)}, {{"lower", 0.5}, {"upper", 0.25}}, "lower > upper (rejected)"},
      {{rng.tensor({3}, DType::Int64, -3, 3)}, {}, "int64 (rejected)"},
  };
}

}  // namespace

void register_activation_samples(OpSampleRegistry& registry) {
  const OracleTolerance exact{0.5, 0.5, 0.0, 0.0};
  const OracleTolerance one_rounding_and_constant{1.5, 1.5, 0.0, 0.0};
  const OracleTolerance expm1_and_products{4.0, 4.0, 0.0, 0.0};
  const OracleTolerance sigmoid_and_product{5.0, 5.0, 0.0, 0.0};
  const UnaryDomain floating_only{-4.0, 4.0, false, false};
  // Integer inputs kept, bool rejected (hardtanh, relu6, threshold); int64 converted to float32 and
  // bool rejected (softsign, tanhshrink): the sample labels say which.
  const UnaryDomain no_bool{-4.0, 4.0, true, false};

  add_unary(registry, "elu", floating_only, expm1_and_products,
            {Attrs{}, float_attrs({{"alpha", 0.5}}), float_attrs({{"alpha", 2.0}})});
  add_unary(registry, "selu", floating_only, expm1_and_products);
  add_unary(registry, "celu", floating_only, expm1_and_products,
            {Attrs{}, float_attrs({{"alpha", 0.5}}), float_attrs({{"alpha", 3.0}}), float_attrs({{"alpha", 0.0}})});
  add_unary(registry, "leaky_relu", floating_only, one_rounding_and_constant,
            {Attrs{}, float_attrs({{"negative_slope", 0.2}}), float_attrs({{"negative_slope", -0.5}})});
  add_unary(registry, "hardtanh", no_bool, exact,
            {Attrs{}, Attrs{{"min_val", Scalar(-0.5)}, {"max_val", Scalar(2.0)}},
             Attrs{{"min_val", Scalar(std::int64_t{-2})}, {"max_val", Scalar(std::int64_t{3})}},
             Attrs{{"min_val", Scalar(0.5)}, {"max_val", Scalar(2.5)}},
             Attrs{{"min_val", Scalar(1.0)}, {"max_val", Scalar(0.0)}}});
  add_unary(registry, "relu6", {-3.0, 9.0, true, false}, exact);
  add_unary(registry, "hardsigmoid", {-5.0, 5.0, false, false}, one_rounding_and_constant);
  add_unary(registry, "hardswish", {-5.0, 5.0, false, false}, {3.0, 3.0, 0.0, 0.0});
  add_unary(registry, "silu", {-8.0, 8.0, false, false}, sigmoid_and_product);
  add_unary(registry, "mish", {-8.0, 8.0, false, false}, {8.0, 8.0, 0.0, 0.0});
  add_unary(registry, "softsign", no_bool, one_rounding_and_constant);
  add_unary(registry, "tanhshrink", no_bool, {4.0, 4.0, 0.0, 1.0});
  add_unary(registry, "softshrink", floating_only, one_rounding_and_constant,
            {Attrs{}, float_attrs({{"lambd", 1.5}}), float_attrs({{"lambd", 0.0}}), float_attrs({{"lambd", -0.5}})});
  add_unary(registry, "hardshrink", floating_only, exact,
            {Attrs{}, float_attrs({{"lambd", 1.5}}), float_attrs({{"lambd", 0.0}})});
  add_unary(registry, "threshold", no_bool, exact,
            {Attrs{{"threshold", Scalar(0.5)}, {"value", Scalar(-2.0)}},
             Attrs{{"threshold", Scalar(std::int64_t{-1})}, {"value", Scalar(std::int64_t{7})}},
             Attrs{{"threshold", Scalar(1.5)}, {"value", Scalar(2.5)}}});
  registry.add({"glu", glu_samples, sigmoid_and_product, ""});
  registry.add({"softmin", softmin_samples, {8.0, 8.0, 0.0, 0.0}, ""});
  registry.add({"prelu", prelu_samples, one_rounding_and_constant, ""});
  // One product with the drawn or mean slope (the draw itself is the oracle's bits, rounded once).
  registry.add({"rrelu", rrelu_samples, one_rounding_and_constant, ""});
}

}  // namespace funcspec::samples
