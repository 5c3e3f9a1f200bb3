#pragma once
// CPU kernels of the random family; they draw through backends/common/random_draws.h.
#include <cstdint>

#include "reference/core/tensor.h"
#include "reference/random/distributions.h"

namespace funcspec::cpu {

// The kernels (random.cpp). Element i of every output uses block stream.block(i), i in row-major
// order of the output, except multinomial (see its comment).
void fill_uniform(const Tensor& out, const random::PhiloxStream& stream, double from, double to);
void fill_normal(const Tensor& out, const random::PhiloxStream& stream, double mean, double std);
// Standard exponential draws divided by lambd.
void fill_exponential(const Tensor& out, const random::PhiloxStream& stream, double lambd);
void fill_randint(const Tensor& out, const random::PhiloxStream& stream, std::int64_t low, std::int64_t high);
void fill_bernoulli_scalar(const Tensor& out, const random::PhiloxStream& stream, double p);
void bernoulli_tensor(const Tensor& p, const Tensor& out, const random::PhiloxStream& stream);
void normal_tensor(const Tensor& mean, const Tensor& std, const Tensor& out, const random::PhiloxStream& stream);
void multinomial(const Tensor& weights, const Tensor& out, std::int64_t num_samples, bool replacement,
                 const random::PhiloxStream& stream);

}  // namespace funcspec::cpu
