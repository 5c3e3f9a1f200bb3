// The CUDA backend on large tensors, each against a peer measured in the same run:
//  - memory-bound kernels on 256 MiB float32 operands: add (two reads, one write), exp (one read,
//    one write), a strided copy (clone of a transposed view), a full sum and a sum over the last dim
//    of an 8192 x 8192 matrix. Counters: achieved bytes per second (bytes read + written / time)
//    and `of_peak`, that as a fraction of the H200's ~4.8 TB/s; the peer is cudaMemcpy of the same
//    256 MiB on the device (read + write), the bandwidth a kernel can hope for.
//  - per-sample gradients of the 784-128-10 tanh MLP of bench/ad_bench.cpp at batch 4096:
//    vmap(grad(loss)) on cuda against the same on the cpu.
// Every iteration waits for the GPU (cuda::synchronize), so times cover the kernels, not launches.
// Without a GPU each benchmark reports the reason and skips.
// Run: build/bench/funcspec_bench_cuda --benchmark_counters_tabular=true
#include <benchmark/benchmark.h>

#include "reference/api/ops.h"
#include "reference/backends/cuda/cuda_device.h"
#include "reference/ops/dispatch.h"
#include "reference/random/generator.h"
#include "reference/transforms/autodiff.h"
#include "reference/transforms/vmap.h"

namespace funcspec::cuda_bench {

using transforms::PyFunction;
using transforms::PyTree;

constexpr double kH200PeakBytesPerSecond = 4.8e12;
constexpr std::int64_t kElements = std::int64_t{64} << 20;  // 64 Mi float32 = 256 MiB
constexpr std::int64_t kSide = 8192;                        // 8192^2 float32 = 256 MiB

bool skipped_without_gpu(benchmark::State& state) {
  if (cuda::device_count() > 0) return false;
  state.SkipWithError(("no GPU: " + cuda::device_description()).c_str());
  return true;
}

Tensor random_on(Device device, const std::vector<std::int64_t>& shape, double scale = 1.0) {
  const Tensor r =
      call_one("randn", {}, {{"size", shape}, {"dtype", DType::Float32}, {"device", std::string(device_name(device))}});
  return scale == 1.0 ? r : ops::mul(r, ops::lit(scale));
}

void report_bandwidth(benchmark::State& state, double bytes_per_iteration) {
  state.SetBytesProcessed(static_cast<std::int64_t>(bytes_per_iteration) * state.iterations());
  state.counters["of_peak"] =
      benchmark::Counter(bytes_per_iteration / kH200PeakBytesPerSecond, benchmark::Counter::kIsIterationInvariantRate);
}

// Runs `body` per iteration, waiting for the GPU each time.
template <typename Body>
void timed_on_gpu(benchmark::State& state, Body&& body) {
  body();  // warm-up: first launches load the module
  cuda::synchronize();
  for (auto _ : state) {
    body();
    cuda::synchronize();
  }
}

void DeviceCopyPeer(benchmark::State& state) {
  if (skipped_without_gpu(state)) return;
  random::GeneratorScope scope(1);
  const Tensor a = random_on(Device::Cuda, {kElements});
  const Tensor b = Tensor::empty({kElements}, DType::Float32, Device::Cuda);
  const std::size_t nbytes = static_cast<std::size_t>(kElements) * sizeof(float);
  timed_on_gpu(state, [&] { cuda::copy_device_to_device(b.storage()->data(), a.storage()->data(), nbytes); });
  report_bandwidth(state, 2.0 * static_cast<double>(nbytes));
}

void AddFloat32(benchmark::State& state) {
  if (skipped_without_gpu(state)) return;
  random::GeneratorScope scope(2);
  const Tensor a = random_on(Device::Cuda, {kElements});
  const Tensor b = random_on(Device::Cuda, {kElements});
  timed_on_gpu(state, [&] { benchmark::DoNotOptimize(ops::add(a, b)); });
  report_bandwidth(state, 3.0 * static_cast<double>(kElements) * sizeof(float));
}

void ExpFloat32(benchmark::State& state) {
  if (skipped_without_gpu(state)) return;
  random::GeneratorScope scope(3);
  const Tensor a = random_on(Device::Cuda, {kElements});
  timed_on_gpu(state, [&] { benchmark::DoNotOptimize(ops::exp(a)); });
  report_bandwidth(state, 2.0 * static_cast<double>(kElements) * sizeof(float));
}

void CloneTransposedFloat32(benchmark::State& state) {
  if (skipped_without_gpu(state)) return;
  random::GeneratorScope scope(4);
  const Tensor a = ops::transpose(random_on(Device::Cuda, {kSide, kSide}), 0, 1);
  timed_on_gpu(state, [&] { benchmark::DoNotOptimize(call_one("clone", {a})); });
  report_bandwidth(state, 2.0 * static_cast<double>(kSide * kSide) * sizeof(float));
}

void SumAllFloat32(benchmark::State& state) {
  if (skipped_without_gpu(state)) return;
  random::GeneratorScope scope(5);
  const Tensor a = random_on(Device::Cuda, {kElements});
  timed_on_gpu(state, [&] { benchmark::DoNotOptimize(ops::sum(a)); });
  report_bandwidth(state, static_cast<double>(kElements) * sizeof(float));
}

void SumLastDimFloat32(benchmark::State& state) {
  if (skipped_without_gpu(state)) return;
  random::GeneratorScope scope(6);
  const Tensor a = random_on(Device::Cuda, {kSide, kSide});
  timed_on_gpu(state, [&] { benchmark::DoNotOptimize(ops::sum(a, std::vector<std::int64_t>{1})); });
  report_bandwidth(state, static_cast<double>(kSide * kSide) * sizeof(float));
}

// --- per-sample gradients (the MLP of bench/ad_bench.cpp) at batch 4096.

constexpr std::int64_t kBatch = 4096;

struct Mlp {
  Tensor w1, b1, w2, b2, inputs, targets;
};

Mlp make_mlp(Device device) {
  random::GeneratorScope scope(5);
  const std::string where(device_name(device));
  return {random_on(device, {128, 784}, 0.03),
          random_on(device, {128}, 0.1),
          random_on(device, {10, 128}, 0.1),
          random_on(device, {10}, 0.1),
          random_on(device, {kBatch, 784}),
          call_one("randint", {},
                   {{"low", std::int64_t{0}},
                    {"high", std::int64_t{10}},
                    {"size", std::vector<std::int64_t>{kBatch}},
                    {"device", where}})};
}

PyTree example_loss(const std::vector<PyTree>& args) {
  const Tensor& x = args[4].tensor();
  const Tensor hidden = ops::tanh(call_one("linear", {ops::unsqueeze(x, 0), args[0].tensor(), args[1].tensor()}));
  const Tensor logits = call_one("linear", {hidden, args[2].tensor(), args[3].tensor()});
  return PyTree(call_one("cross_entropy", {logits, ops::unsqueeze(args[5].tensor(), 0)}));
}

void per_sample_grads(benchmark::State& state, Device device) {
  const Mlp m = make_mlp(device);
  transforms::VmapOptions options;
  options.in_dims =
      PyTree::tuple({PyTree::none(), PyTree::none(), PyTree::none(), PyTree::none(), PyTree(0), PyTree(0)});
  const PyFunction per_sample = transforms::vmap(
      transforms::grad(example_loss, transforms::GradOptions{transforms::Argnums::many({0, 1, 2, 3}), false}), options);
  const std::vector<PyTree> args{PyTree(m.w1), PyTree(m.b1),     PyTree(m.w2),
                                 PyTree(m.b2), PyTree(m.inputs), PyTree(m.targets)};
  if (device == Device::Cuda) {
    timed_on_gpu(state, [&] { benchmark::DoNotOptimize(per_sample(args)); });
  } else {
    for (auto _ : state) benchmark::DoNotOptimize(per_sample(args));
  }
  state.counters["examples_per_second"] =
      benchmark::Counter(static_cast<double>(kBatch), benchmark::Counter::kIsIterationInvariantRate);
}

void VmapPerSampleGradCpu(benchmark::State& state) {
  if (skipped_without_gpu(state)) return;  // the peer of the cuda run: meaningless without it
  per_sample_grads(state, Device::Cpu);
}

void VmapPerSampleGradCuda(benchmark::State& state) {
  if (skipped_without_gpu(state)) return;
  per_sample_grads(state, Device::Cuda);
}

BENCHMARK(DeviceCopyPeer)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(AddFloat32)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(ExpFloat32)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(CloneTransposedFloat32)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(SumAllFloat32)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(SumLastDimFloat32)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(VmapPerSampleGradCpu)->UseRealTime()->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK(VmapPerSampleGradCuda)->UseRealTime()->Unit(benchmark::kMillisecond);

}  // namespace funcspec::cuda_bench

BENCHMARK_MAIN();
