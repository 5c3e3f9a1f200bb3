#include "reference/backends/cpu/linalg_einsum.h"

#include <span>
#include <type_traits>
#include <vector>

#include "reference/backends/common/accumulator.h"

namespace funcspec::cpu {
namespace {

// Visits every index of `sizes` in row-major order, handing `fn` the offsets of that index in each
// of a runtime number of arrays: offsets[k] = start[k] + sum over d of index[d] * strides[k][d].
// The same odometer as for_each_offset, for when the number of arrays is only known at run time.
template <typename Fn>
void for_each_offsets(std::span<const std::int64_t> sizes, const std::vector<std::vector<std::int64_t>>& strides,
                      std::vector<std::int64_t> offsets, Fn&& fn) {
  for (std::int64_t s : sizes) {
    if (s == 0) return;
  }
  std::vector<std::int64_t> index(sizes.size(), 0);
  while (true) {
    fn(static_cast<const std::vector<std::int64_t>&>(offsets));
    std::size_t d = sizes.size();
    while (true) {
      if (d == 0) return;
      --d;
      if (++index[d] < sizes[d]) {
        for (std::size_t k = 0; k < offsets.size(); ++k) offsets[k] += strides[k][d];
        break;
      }
      for (std::size_t k = 0; k < offsets.size(); ++k) offsets[k] -= strides[k][d] * (sizes[d] - 1);
      index[d] = 0;
    }
  }
}

template <typename T>
void einsum_typed(const common::EinsumPlan& plan, const TensorList& operands, const Tensor& out) {
  // float32 is multiplied and summed in float64 so that the result is rounded once; int64 in uint64
  // so that overflow wraps instead of being undefined behaviour.
  using Acc = common::accumulator_t<T>;
  const std::size_t n = operands.size();
  const std::span<const std::int64_t> all_sizes(plan.sizes);
  const auto output_sizes = all_sizes.first(plan.output_rank);
  const auto summed_sizes = all_sizes.subspan(plan.output_rank);

  // Strides of each operand (and, last, of the output) along the output dims and the summed dims.
  // A dim of size 1 stands for any index of a broadcast label, so it contributes no stride.
  std::vector<std::vector<std::int64_t>> output_strides(n + 1, std::vector<std::int64_t>(output_sizes.size(), 0));
  std::vector<std::vector<std::int64_t>> summed_strides(n, std::vector<std::int64_t>(summed_sizes.size(), 0));
  for (std::size_t k = 0; k < n; ++k) {
    for (std::size_t d = 0; d < plan.operand_dims[k].size(); ++d) {
      if (operands[k].shape()[d] == 1) continue;
      const std::size_t dim = plan.operand_dims[k][d];
      if (dim < plan.output_rank)
        output_strides[k][dim] += operands[k].strides()[d];
      else
        summed_strides[k][dim - plan.output_rank] += operands[k].strides()[d];
    }
  }
  output_strides[n] = out.strides();

  std::vector<const T*> data;
  for (const Tensor& t : operands) data.push_back(t.data<T>());
  T* out_data = out.data<T>();
  for_each_offsets(output_sizes, output_strides, std::vector<std::int64_t>(n + 1, 0),
                   [&](const std::vector<std::int64_t>& at) {
                     Acc sum(0);
                     for_each_offsets(summed_sizes, summed_strides, std::vector<std::int64_t>(at.begin(), at.end() - 1),
                                      [&](const std::vector<std::int64_t>& in) {
                                        Acc product(1);
                                        for (std::size_t k = 0; k < n; ++k) product *= Acc(data[k][in[k]]);
                                        sum += product;
                                      });
                     out_data[at[n]] = static_cast<T>(sum);
                   });
}

}  // namespace

void einsum(const common::EinsumPlan& plan, const TensorList& operands, const Tensor& out) {
  visit_dtype(out.dtype(), [&]<typename T>() {
    if constexpr (std::is_same_v<T, bool>) {
      FUNCSPEC_UNREACHABLE("einsum kernel on bool (the op layer rejects it)");
    } else {
      einsum_typed<T>(plan, operands, out);
    }
  });
}

}  // namespace funcspec::cpu
