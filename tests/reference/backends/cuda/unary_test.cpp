// The CUDA unary kernels against the cpu's: every unary op, every dtype, every layout.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/reference/backends/cuda/elementwise_test_support.h"

namespace funcspec::cuda_unary_test {
namespace {

using namespace cuda_elementwise_testing;  // NOLINT(google-build-using-namespace)

// Ulp bounds. 0: the function is exact on both sides (IEEE +, -, *, /, sqrt, fma, rint, floor and
// ceil are correctly rounded on the GPU as on the host; -fmad=false keeps each rounding), so the
// results are identical. The others call the math libraries, glibc on the cpu and CUDA's on the
// GPU: CUDA documents at most 4 ulps for these functions (tanf, erfcf, ...; 5 for double erfc) and
// glibc at most 2 to 5, so one library call is within 8 of the other's;
// sigmoid, gelu, gelu_tanh and softplus combine a call with a few roundings whose errors the
// function's condition (at most about 2 over math_values) scales: 32.
constexpr double kExact = 0;
constexpr double kLibm = 8;
constexpr double kComposite = 32;

struct UnaryCase {
  std::string op;
  double ulps;
  Attrs attrs;
};

std::vector<UnaryCase> cases() {
  return {
      {"neg", kExact, {}},
      {"abs", kExact, {}},
      {"sign", kExact, {}},
      {"square", kExact, {}},
      {"relu", kExact, {}},
      {"floor", kExact, {}},
      {"ceil", kExact, {}},
      {"round", kExact, {}},
      {"exp", kLibm, {}},
      {"expm1", kLibm, {}},
      {"log", kLibm, {}},
      {"log1p", kLibm, {}},
      {"sqrt", kExact, {}},
      {"rsqrt", kExact, {}},
      {"reciprocal", kExact, {}},
      {"sin", kLibm, {}},
      {"cos", kLibm, {}},
      {"tan", kLibm, {}},
      {"tanh", kLibm, {}},
      {"sigmoid", kComposite, {}},
      {"erf", kLibm, {}},
      {"gelu", kComposite, {}},
      {"gelu", kComposite, {{"approximate", std::string("tanh")}}},
      {"softplus", kComposite, {}},
      {"softplus", kComposite, {{"beta", 2.0}, {"threshold", 5.0}}},
      {"logical_not", kExact, {}},
  };
}

// The inputs of `c` in `dtype`, every layout (edge layouts included): exact functions see the
// special values, library math moderate ones.
std::vector<Layout> inputs_for(const UnaryCase& c, DType dtype, bool edges) {
  auto pick = [&](auto values) { return edges ? edge_layouts(values, dtype) : layouts(values, dtype); };
  switch (dtype) {
    case DType::Bool: return pick(bool_values());
    case DType::Int64: return c.ulps == kExact ? pick(int_values()) : pick(small_int_values());
    default: return c.ulps == kExact ? pick(floating_values()) : pick(math_values());
  }
}

constexpr DType kDTypes[] = {DType::Bool, DType::Int64, DType::Float32, DType::Float64};

TEST(CudaUnary, EveryOpEveryDtypeEveryLayoutMatchesTheCpu) {
  FUNCSPEC_REQUIRE_GPU();
  for (const UnaryCase& c : cases()) {
    for (DType dtype : kDTypes) {
      for (bool edges : {false, true}) {
        for (const Layout& in : inputs_for(c, dtype, edges)) {
          const std::string what = std::string(dtype_name(dtype)) + " " + in.name + " " + c.attrs.to_string();
          expect_same_on_cuda(c.op, {in.tensor}, c.attrs, c.ulps, what);
        }
      }
    }
  }
}

TEST(CudaUnary, ErrorsMatchTheCpu) {
  FUNCSPEC_REQUIRE_GPU();
  // Dtypes an op rejects, and a bad attribute: raised before any kernel, with the cpu's kind and message.
  const Tensor b = from_vector(bool_values(), {12}, DType::Bool);
  const Tensor i = from_vector(int_values(), {24}, DType::Int64);
  const Tensor f = from_vector(math_values(), {24}, DType::Float32);
  expect_same_on_cuda("neg", {b}, {}, 0, "bool");
  expect_same_on_cuda("gelu", {i}, {}, 0, "int64");
  expect_same_on_cuda("softplus", {b}, {}, 0, "bool");
  expect_same_on_cuda("gelu", {f}, {{"approximate", std::string("erf")}}, 0, "bad approximate");
}

// More than a million elements: the grid-stride loops of both kernels run several rounds.
TEST(CudaUnary, LargeTensorsMatchTheCpu) {
  FUNCSPEC_REQUIRE_GPU_SCALE();
  constexpr std::int64_t kLarge = (1 << 20) + 7;
  const std::vector<double> v = spread_values(kLarge, -8.0, 8.0);
  for (DType dtype : {DType::Float32, DType::Float64}) {
    const Tensor flat = from_vector(v, {kLarge}, dtype);
    // [1031, 1017] seen transposed: the strided kernel.
    const std::vector<double> w = spread_values(1031 * 1017, -8.0, 8.0);
    const Tensor transposed = Tensor::view_of(from_vector(w, {1017, 1031}, dtype), {1031, 1017}, {1, 1031}, 0);
    for (const Tensor& in : {flat, transposed}) {
      const std::string what = std::string(dtype_name(dtype)) + (in.is_contiguous() ? " contiguous" : " transposed");
      expect_same_on_cuda("neg", {in}, {}, kExact, what);
      expect_same_on_cuda("exp", {in}, {}, kLibm, what);
      expect_same_on_cuda("sigmoid", {in}, {}, kComposite, what);
      expect_same_on_cuda("logical_not", {in}, {}, kExact, what);
    }
  }
  const Tensor ints = from_vector(cycled(int_values(), kLarge), {kLarge}, DType::Int64);
  expect_same_on_cuda("abs", {ints}, {}, kExact, "int64");
  expect_same_on_cuda("square", {ints}, {}, kExact, "int64");
}

}  // namespace
}  // namespace funcspec::cuda_unary_test
