// CUDA kernels of einsum: the strided copies around the cuBLAS products (float32 operands widened
// to float64 on the way in; the float64 sums stored as the cpu's on the way out), and the
// generic kernel for the contractions that are not one product of two floating operands. Compiled
// with --fmad=false (reference/CMakeLists.txt) so that the generic kernel's products and sums round
// exactly as the cpu's do.
#include <cstdint>

#include "reference/backends/common/accumulator.h"
#include "reference/backends/cuda/kernel_launch.h"
#include "reference/backends/cuda/linalg_launch.h"

namespace funcspec::cuda {
namespace {

// An exact copy: float -> double widens exactly, double -> double copies.
template <typename In, typename Out>
__global__ void einsum_copy_kernel(Geometry geometry, StridedView<const In> src, StridedView<Out> dst) {
  FUNCSPEC_GRID_STRIDE_LOOP(linear, geometry.numel) {
    element_at(dst, linear, geometry) = static_cast<Out>(element_at(src, linear, geometry));
  }
}

// The cpu's last step (cpu::einsum): its float64 sum starts at +0, so a zero sum is +0, where
// cuBLAS stores its first product as is and returns -0 whenever every product is -0 (one term
// (-x)·0, or an underflow). Adding +0 turns a -0 into +0 and changes nothing else, NaN included.
// Then float32 rounds once to nearest even (cvt.rn.f32.f64: overflow gives infinity, float32
// subnormals are kept, as on the host). `src` and `dst` may be the same elements (in place).
template <typename Out>
__global__ void einsum_store_kernel(Geometry geometry, StridedView<const double> src, StridedView<Out> dst) {
  FUNCSPEC_GRID_STRIDE_LOOP(linear, geometry.numel) {
    element_at(dst, linear, geometry) = static_cast<Out>(element_at(src, linear, geometry) + 0.0);
  }
}

template <typename T>
__global__ void einsum_generic_kernel(Geometry output, Geometry summed, const EinsumOperand<T>* operands,
                                      int operand_count, StridedView<T> out) {
  using Acc = common::accumulator_t<T>;  // the cpu kernel's: float32 in float64, int64 in uint64
  FUNCSPEC_GRID_STRIDE_LOOP(o, output.numel) {
    std::int64_t output_index[kMaxDims];
    std::int64_t rest = o;
    for (int d = output.rank - 1; d >= 0; --d) {
      output_index[d] = rest % output.sizes[d];
      rest /= output.sizes[d];
    }
    // The summed positions in row-major order, the last dim fastest: the cpu's odometer.
    std::int64_t summed_index[kMaxDims] = {};
    Acc sum(0);
    for (std::int64_t s = 0; s < summed.numel; ++s) {
      Acc product(1);
      for (int k = 0; k < operand_count; ++k) {
        const EinsumOperand<T>& operand = operands[k];
        std::int64_t offset = 0;
        for (int d = 0; d < output.rank; ++d) offset += output_index[d] * operand.output_strides[d];
        for (int d = 0; d < summed.rank; ++d) offset += summed_index[d] * operand.summed_strides[d];
        product *= Acc(operand.data[offset]);
      }
      sum += product;
      for (int d = summed.rank - 1; d >= 0; --d) {
        if (++summed_index[d] < summed.sizes[d]) break;
        summed_index[d] = 0;
      }
    }
    element_at(out, o, output) = static_cast<T>(sum);
  }
}

}  // namespace

template <typename In, typename Out>
void launch_einsum_copy(const Geometry& geometry, StridedView<const In> src, StridedView<Out> dst) {
  if (geometry.numel == 0) return;
  FUNCSPEC_LAUNCH(blocks_for(geometry.numel), kThreadsPerBlock, einsum_copy_kernel<In, Out>)(geometry, src, dst);
  check_launch("einsum copy kernel launch");
}

template <typename Out>
void launch_einsum_store(const Geometry& geometry, StridedView<const double> src, StridedView<Out> dst) {
  if (geometry.numel == 0) return;
  FUNCSPEC_LAUNCH(blocks_for(geometry.numel), kThreadsPerBlock, einsum_store_kernel<Out>)(geometry, src, dst);
  check_launch("einsum store kernel launch");
}

template <typename T>
void launch_einsum_generic(const Geometry& output, const Geometry& summed, const EinsumOperand<T>* operands,
                           int operand_count, StridedView<T> out) {
  if (output.numel == 0) return;
  FUNCSPEC_LAUNCH(blocks_for(output.numel), kThreadsPerBlock, einsum_generic_kernel<T>)
  (output, summed, operands, operand_count, out);
  check_launch("einsum kernel launch");
}

template void launch_einsum_copy<float, double>(const Geometry&, StridedView<const float>, StridedView<double>);
template void launch_einsum_copy<double, double>(const Geometry&, StridedView<const double>, StridedView<double>);
template void launch_einsum_store<float>(const Geometry&, StridedView<const double>, StridedView<float>);
template void launch_einsum_store<double>(const Geometry&, StridedView<const double>, StridedView<double>);

template void launch_einsum_generic<std::int64_t>(const Geometry&, const Geometry&, const EinsumOperand<std::int64_t>*,
                                                  int, StridedView<std::int64_t>);
template void launch_einsum_generic<float>(const Geometry&, const Geometry&, const EinsumOperand<float>*, int,
                                           StridedView<float>);
template void launch_einsum_generic<double>(const Geometry&, const Geometry&, const EinsumOperand<double>*, int,
                                            StridedView<double>);

}  // namespace funcspec::cuda
