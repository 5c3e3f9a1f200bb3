// Automatic differentiation workloads, each against its peer in the same run:
//  - per-sample gradients of a 2-layer MLP (784-128-10, tanh, cross-entropy, batch 64, float32):
//    vmap(grad(loss)) with in_dims (None, None, None, None, 0, 0) against a loop of grad(loss);
//  - the Jacobian of tanh(W x), W 64x64: jacrev against jacfwd;
//  - the Hessian of sum(sin(v) * v) + (v.v)^2, v in R^128 (jacfwd over jacrev);
//  - jacrev of tanh(W x) with chunk_size 1, 8 and none: time, and the peak bytes the engine held
//    (counter peak_bytes), which chunking trades against time.
// Run: build/bench/funcspec_bench_ad --benchmark_counters_tabular=true
#include <benchmark/benchmark.h>

#include "reference/api/ops.h"
#include "reference/core/storage.h"
#include "reference/ops/dispatch.h"
#include "reference/random/generator.h"
#include "reference/transforms/autodiff.h"
#include "reference/transforms/vmap.h"

namespace funcspec {
namespace {

using transforms::PyFunction;
using transforms::PyTree;

Tensor randn(const std::vector<std::int64_t>& shape, double scale) {
  return ops::mul(call_one("randn", {}, {{"size", shape}, {"dtype", DType::Float32}}), ops::lit(scale));
}

struct Mlp {
  Tensor w1, b1, w2, b2;   // 128x784, 128, 10x128, 10
  Tensor inputs, targets;  // 64x784 float32, 64 int64
};

Mlp make_mlp() {
  random::GeneratorScope scope(5);
  Mlp m;
  m.w1 = randn({128, 784}, 0.03);
  m.b1 = randn({128}, 0.1);
  m.w2 = randn({10, 128}, 0.1);
  m.b2 = randn({10}, 0.1);
  m.inputs = randn({64, 784}, 1.0);
  m.targets = call_one("randint", {},
                       {{"low", std::int64_t{0}}, {"high", std::int64_t{10}}, {"size", std::vector<std::int64_t>{64}}});
  return m;
}

// The loss of one example: cross_entropy(W2 tanh(W1 x + b1) + b2, target).
PyTree example_loss(const std::vector<PyTree>& args) {
  const Tensor& x = args[4].tensor();
  const Tensor hidden = ops::tanh(call_one("linear", {ops::unsqueeze(x, 0), args[0].tensor(), args[1].tensor()}));
  const Tensor logits = call_one("linear", {hidden, args[2].tensor(), args[3].tensor()});
  return PyTree(call_one("cross_entropy", {logits, ops::unsqueeze(args[5].tensor(), 0)}));
}

transforms::GradOptions parameter_grads() { return {transforms::Argnums::many({0, 1, 2, 3}), false}; }

void LoopPerSampleGrad(benchmark::State& state) {
  const Mlp m = make_mlp();
  const PyFunction g = transforms::grad(example_loss, parameter_grads());
  for (auto _ : state) {
    TensorList w1_grads;
    for (std::int64_t b = 0; b < 64; ++b) {
      const Tensor x = ops::select(m.inputs, 0, b);
      const Tensor t = ops::select(m.targets, 0, b);
      const PyTree grads = g({PyTree(m.w1), PyTree(m.b1), PyTree(m.w2), PyTree(m.b2), PyTree(x), PyTree(t)});
      w1_grads.push_back(grads.children()[0].tensor());
    }
    benchmark::DoNotOptimize(call_one("stack", w1_grads, {{"dim", std::int64_t{0}}}));
  }
}

void VmapPerSampleGrad(benchmark::State& state) {
  const Mlp m = make_mlp();
  transforms::VmapOptions options;
  options.in_dims =
      PyTree::tuple({PyTree::none(), PyTree::none(), PyTree::none(), PyTree::none(), PyTree(0), PyTree(0)});
  const PyFunction per_sample = transforms::vmap(transforms::grad(example_loss, parameter_grads()), options);
  for (auto _ : state) {
    benchmark::DoNotOptimize(
        per_sample({PyTree(m.w1), PyTree(m.b1), PyTree(m.w2), PyTree(m.b2), PyTree(m.inputs), PyTree(m.targets)}));
  }
}

struct TanhLayer {
  Tensor w, x;  // 64x64, 64
};

TanhLayer make_tanh_layer() {
  random::GeneratorScope scope(7);
  return {randn({64, 64}, 0.125), randn({64}, 1.0)};
}

PyFunction tanh_layer(const Tensor& w) {
  return [w](const std::vector<PyTree>& args) { return PyTree(ops::tanh(call_one("mv", {w, args[0].tensor()}))); };
}

void JacrevTanhLayer(benchmark::State& state) {
  const TanhLayer l = make_tanh_layer();
  const PyFunction jac = transforms::jacrev(tanh_layer(l.w));
  for (auto _ : state) benchmark::DoNotOptimize(jac({PyTree(l.x)}));
}

void JacfwdTanhLayer(benchmark::State& state) {
  const TanhLayer l = make_tanh_layer();
  const PyFunction jac = transforms::jacfwd(tanh_layer(l.w));
  for (auto _ : state) benchmark::DoNotOptimize(jac({PyTree(l.x)}));
}

// chunk_size as the benchmark argument; 0 means none (every row at once).
void JacrevChunked(benchmark::State& state) {
  const TanhLayer l = make_tanh_layer();
  transforms::JacrevOptions options;
  if (state.range(0) > 0) options.chunk_size = state.range(0);
  const PyFunction jac = transforms::jacrev(tanh_layer(l.w), options);
  const std::int64_t before = allocation_stats(Device::Cpu).live_bytes;
  reset_peak_bytes(Device::Cpu);
  for (auto _ : state) benchmark::DoNotOptimize(jac({PyTree(l.x)}));
  state.counters["peak_bytes"] = static_cast<double>(allocation_stats(Device::Cpu).peak_bytes - before);
}

PyTree hessian_objective(const std::vector<PyTree>& args) {
  const Tensor& v = args[0].tensor();
  const Tensor vv = call_one("dot", {v, v});
  return PyTree(ops::add(ops::sum(ops::mul(ops::sin(v), v)), ops::mul(vv, vv)));
}

void HessianSinPlusQuartic(benchmark::State& state) {
  random::GeneratorScope scope(9);
  const Tensor v = randn({128}, 0.1);
  const PyFunction h = transforms::hessian(hessian_objective);
  for (auto _ : state) benchmark::DoNotOptimize(h({PyTree(v)}));
}

BENCHMARK(LoopPerSampleGrad)->Unit(benchmark::kMillisecond);
BENCHMARK(VmapPerSampleGrad)->Unit(benchmark::kMillisecond);
BENCHMARK(JacrevTanhLayer)->Unit(benchmark::kMillisecond);
BENCHMARK(JacfwdTanhLayer)->Unit(benchmark::kMillisecond);
BENCHMARK(JacrevChunked)->Arg(1)->Arg(8)->Arg(0)->Unit(benchmark::kMillisecond);
BENCHMARK(HessianSinPlusQuartic)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace funcspec

BENCHMARK_MAIN();
