#pragma once
// NOTE: [randomness statistics]
// Whether a large draw follows its distribution, with bounds that a correct backend exceeds with a
// stated, tiny probability. Every check here is a two-sided bound of the same form:
//   - Kolmogorov–Smirnov: for n independent draws with CDF F and empirical CDF F_n,
//     P(sup |F_n - F| > t) <= 2 exp(-2 n t^2) (the Dvoretzky–Kiefer–Wolfowitz inequality with
//     Massart's constant, valid for every t > 0 at which the bound is below 1);
//   - Hoeffding: for the mean m of n independent variables in [0, 1] (Bernoulli draws, or
//     indicators of one value of a discrete draw), P(|m - E m| >= t) <= 2 exp(-2 n t^2).
// A caller that makes M such tests per run and wants a false alarm below `budget` per run gives
// each test the level budget / M (Bonferroni) and compares with two_sided_threshold(n, budget / M).
// Draws with different parameters per element are first mapped through their own CDF (the
// probability integral transform), which makes them uniform on [0, 1] when they are right.
#include <cstdint>
#include <vector>

namespace funcspec::properties {

// The t at which 2 exp(-2 n t^2) equals `alpha`: sqrt(ln(2 / alpha) / (2 n)).
double two_sided_threshold(std::int64_t n, double alpha);

// sup_x |F_n(x) - x| of values that should be uniform on [0, 1] (each already mapped through its
// CDF). Values outside [0, 1] count as the nearer end and NaN as 1; callers check ranges themselves.
double ks_statistic_uniform(std::vector<double> u);

// Φ, the standard normal CDF.
double standard_normal_cdf(double z);

}  // namespace funcspec::properties
