#include "property_tests/randomness_statistics.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace funcspec::properties {

double two_sided_threshold(std::int64_t n, double alpha) {
  if (n <= 0 || !(alpha > 0 && alpha < 1))
    throw std::invalid_argument("two_sided_threshold needs n > 0 and 0 < alpha < 1");
  return std::sqrt(std::log(2.0 / alpha) / (2.0 * static_cast<double>(n)));
}

double ks_statistic_uniform(std::vector<double> u) {
  if (u.empty()) return 0;
  for (double& x : u) x = std::isnan(x) ? 1.0 : std::clamp(x, 0.0, 1.0);
  std::sort(u.begin(), u.end());
  const double n = static_cast<double>(u.size());
  double d = 0;
  for (std::size_t i = 0; i < u.size(); ++i) {
    // F_n jumps from i/n to (i+1)/n at u[i].
    const double below = static_cast<double>(i) / n;
    const double above = static_cast<double>(i + 1) / n;
    d = std::max({d, std::abs(above - u[i]), std::abs(u[i] - below)});
  }
  return d;
}

double standard_normal_cdf(double z) { return 0.5 * std::erfc(-z / std::sqrt(2.0)); }

}  // namespace funcspec::properties
