#pragma once
// The oracle dtype: a software float with about 50 significant decimal digits, used to compute the
// values that float32/float64 results are judged against. Expression templates are off so that
// generic kernel code (`auto y = a * b;`) yields a number, not a lazy expression.
#include <boost/multiprecision/cpp_bin_float.hpp>

namespace funcspec {

using oracle_t = boost::multiprecision::number<boost::multiprecision::cpp_bin_float<50>, boost::multiprecision::et_off>;

template <typename T>
inline constexpr bool is_oracle_v = std::is_same_v<T, oracle_t>;

}  // namespace funcspec
