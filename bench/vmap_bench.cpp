// vmap against the loop it replaces, in the same run, on the two workloads of VMAP-4.1's examples.
//  - batched dot: x, y of shape [B=1024, n=1000]; vmap(dot)(x, y) against calling dot on each row
//    and stacking (the "Python-free loop": the same engine ops, driven by a C++ loop).
//  - ensemble: 5 models Linear(3, 3) (weights [5, 3, 3], biases [5, 3]) on one batch of 64 inputs,
//    vmap over the models with in_dims (0, 0, None), against a loop over the models.
// Run: build/bench/funcspec_bench_vmap --benchmark_counters_tabular=true; the ratio of each
// Loop* to its Vmap* time is the speed-up.
#include <benchmark/benchmark.h>

#include "reference/ops/dispatch.h"
#include "reference/transforms/vmap.h"

namespace funcspec {
namespace {

using transforms::PyFunction;
using transforms::PyTree;

Tensor dot(const Tensor& a, const Tensor& b) { return call_one("sum", {call_one("mul", {a, b})}); }

Tensor filled(const Shape& shape, double value) {
  return call_one("full", {},
                  {{"size", std::vector<std::int64_t>(shape.begin(), shape.end())},
                   {"fill_value", value},
                   {"dtype", DType::Float32}});
}

void LoopBatchedDot(benchmark::State& state) {
  const Tensor x = filled({1024, 1000}, 0.5), y = filled({1024, 1000}, 2.0);
  for (auto _ : state) {
    TensorList rows;
    for (std::int64_t b = 0; b < 1024; ++b) {
      const Attrs at{{"dim", std::int64_t{0}}, {"index", b}};
      rows.push_back(dot(call_one("select", {x}, at), call_one("select", {y}, at)));
    }
    benchmark::DoNotOptimize(call_one("stack", rows, {{"dim", std::int64_t{0}}}));
  }
}

void VmapBatchedDot(benchmark::State& state) {
  const Tensor x = filled({1024, 1000}, 0.5), y = filled({1024, 1000}, 2.0);
  const PyFunction batched =
      transforms::vmap([](const std::vector<PyTree>& args) { return PyTree(dot(args[0].tensor(), args[1].tensor())); });
  for (auto _ : state) benchmark::DoNotOptimize(batched({PyTree(x), PyTree(y)}).tensor());
}

// One Linear(3, 3): x @ weight^T + bias.
Tensor linear(const Tensor& weight, const Tensor& bias, const Tensor& x) {
  return call_one(
      "add",
      {call_one("matmul", {x, call_one("transpose", {weight}, {{"dim0", std::int64_t{0}}, {"dim1", std::int64_t{1}}})}),
       bias});
}

void LoopEnsemble(benchmark::State& state) {
  const Tensor weights = filled({5, 3, 3}, 0.1), biases = filled({5, 3}, 0.2), x = filled({64, 3}, 1.0);
  for (auto _ : state) {
    TensorList outs;
    for (std::int64_t m = 0; m < 5; ++m) {
      const Attrs at{{"dim", std::int64_t{0}}, {"index", m}};
      outs.push_back(linear(call_one("select", {weights}, at), call_one("select", {biases}, at), x));
    }
    benchmark::DoNotOptimize(call_one("stack", outs, {{"dim", std::int64_t{0}}}));
  }
}

void VmapEnsemble(benchmark::State& state) {
  const Tensor weights = filled({5, 3, 3}, 0.1), biases = filled({5, 3}, 0.2), x = filled({64, 3}, 1.0);
  transforms::VmapOptions options;
  options.in_dims = PyTree::tuple({PyTree(0), PyTree(0), PyTree::none()});
  const PyFunction ensemble = transforms::vmap(
      [](const std::vector<PyTree>& args) {
        return PyTree(linear(args[0].tensor(), args[1].tensor(), args[2].tensor()));
      },
      options);
  for (auto _ : state) benchmark::DoNotOptimize(ensemble({PyTree(weights), PyTree(biases), PyTree(x)}).tensor());
}

BENCHMARK(LoopBatchedDot)->Unit(benchmark::kMillisecond);
BENCHMARK(VmapBatchedDot)->Unit(benchmark::kMillisecond);
BENCHMARK(LoopEnsemble)->Unit(benchmark::kMicrosecond);
BENCHMARK(VmapEnsemble)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace funcspec

BENCHMARK_MAIN();
