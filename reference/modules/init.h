#pragma once
// How layers create their state: PyTorch's default initialisations, drawn from the current
// generator (NOTE: [random streams]), so a random::GeneratorScope around construction makes a
// model reproducible from its seed. On meta nothing is drawn and nothing is allocated.
#include <cstdint>

#include "reference/core/scalar.h"
#include "reference/core/shape.h"
#include "reference/core/tensor.h"
#include "reference/modules/module.h"

namespace funcspec::modules::init {

// Uniform on [-bound, bound].
Tensor uniform(const Shape& shape, double bound, const ModuleOptions& options);
// Standard normal scaled by `std` (nn.Embedding's default).
Tensor normal(const Shape& shape, double std, const ModuleOptions& options);
// Every element `value`.
Tensor filled(const Shape& shape, const Scalar& value, const ModuleOptions& options);

// The bound PyTorch's Linear uses for both weight and bias: kaiming_uniform_ with a = sqrt(5)
// gives gain sqrt(2 / (1 + a^2)) = sqrt(1/3) and bound gain * sqrt(3 / fan_in) = 1 / sqrt(fan_in);
// the bias bound is 1 / sqrt(fan_in) by definition. A layer without inputs (fan_in 0) gets 0.
double linear_bound(std::int64_t fan_in);
// xavier_uniform_'s bound, sqrt(6 / (fan_in + fan_out)) (MultiheadAttention's in_proj_weight).
double xavier_bound(std::int64_t fan_in, std::int64_t fan_out);

}  // namespace funcspec::modules::init
