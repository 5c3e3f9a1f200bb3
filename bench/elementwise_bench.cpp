// The cost of the reference engine's generality (dispatch, strided loop, dtype dispatch) on an
// elementwise op, against a plain loop over contiguous float arrays: the peer in the same run.
// Run: build/bench/funcspec_bench_elementwise --benchmark_counters_tabular=true
#include <benchmark/benchmark.h>

#include <vector>

#include "reference/ops/dispatch.h"

namespace funcspec {
namespace {

void PlainLoopAddFloat32(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  std::vector<float> a(n, 1.5f), b(n, 2.5f), out(n);
  for (auto _ : state) {
    for (std::size_t i = 0; i < n; ++i) out[i] = a[i] + b[i];
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * n * 3 * sizeof(float)));
}

void ReferenceAddFloat32Contiguous(benchmark::State& state) {
  const std::int64_t n = state.range(0);
  const Tensor a = Tensor::empty({n}, DType::Float32), b = Tensor::empty({n}, DType::Float32);
  for (auto _ : state) benchmark::DoNotOptimize(call_one("add", {a, b}));
  state.SetBytesProcessed(state.iterations() * n * 3 * static_cast<std::int64_t>(sizeof(float)));
}

void ReferenceAddFloat32Transposed(benchmark::State& state) {
  const std::int64_t side = state.range(0);
  const Tensor base = Tensor::empty({side, side}, DType::Float32);
  const Tensor transposed = Tensor::view_of(base, {side, side}, {1, side}, 0);
  for (auto _ : state) benchmark::DoNotOptimize(call_one("add", {transposed, base}));
  state.SetBytesProcessed(state.iterations() * side * side * 3 * static_cast<std::int64_t>(sizeof(float)));
}

void ReferenceAddOracle(benchmark::State& state) {
  const std::int64_t n = state.range(0);
  const Tensor a = Tensor::empty({n}, DType::Oracle), b = Tensor::empty({n}, DType::Oracle);
  for (auto _ : state) benchmark::DoNotOptimize(call_one("add", {a, b}));
  state.SetItemsProcessed(state.iterations() * n);
}

void ReferenceAddDispatchOverhead(benchmark::State& state) {
  const Tensor a = Tensor::empty({}, DType::Float32), b = Tensor::empty({}, DType::Float32);
  for (auto _ : state) benchmark::DoNotOptimize(call_one("add", {a, b}));
}

BENCHMARK(PlainLoopAddFloat32)->Arg(1 << 10)->Arg(1 << 20);
BENCHMARK(ReferenceAddFloat32Contiguous)->Arg(1 << 10)->Arg(1 << 20);
BENCHMARK(ReferenceAddFloat32Transposed)->Arg(32)->Arg(1024);
BENCHMARK(ReferenceAddOracle)->Arg(1 << 10);
BENCHMARK(ReferenceAddDispatchOverhead);

}  // namespace
}  // namespace funcspec

BENCHMARK_MAIN();
