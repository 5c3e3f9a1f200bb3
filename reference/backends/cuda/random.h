#pragma once
// The random family's CUDA kernels (host side): the signatures and semantics of
// reference/backends/cpu/random.h for outputs on cuda, giving the cpu's bits for the same stream
// (NOTE: [cuda random kernels] in random_launch.h).
#include <cstdint>

#include "reference/core/tensor.h"
#include "reference/random/philox.h"

namespace funcspec::cuda {

void fill_uniform(const Tensor& out, const random::PhiloxStream& stream, double from, double to);
void fill_normal(const Tensor& out, const random::PhiloxStream& stream, double mean, double std);
void fill_exponential(const Tensor& out, const random::PhiloxStream& stream, double lambd);
void fill_randint(const Tensor& out, const random::PhiloxStream& stream, std::int64_t low, std::int64_t high);
void fill_bernoulli_scalar(const Tensor& out, const random::PhiloxStream& stream, double p);
void bernoulli_tensor(const Tensor& p, const Tensor& out, const random::PhiloxStream& stream);
void normal_tensor(const Tensor& mean, const Tensor& std, const Tensor& out, const random::PhiloxStream& stream);
void multinomial(const Tensor& weights, const Tensor& out, std::int64_t num_samples, bool replacement,
                 const random::PhiloxStream& stream);

}  // namespace funcspec::cuda
