#pragma once
// The oracle dtype: a software float with about 50 significant decimal digits, used to compute the
// values that float32/float64 results are judged against. Expression templates are off so that
// generic kernel code (`auto y = a * b;`) yields a number, not a lazy expression.
#if defined(__CUDACC__)
// nvcc's host pass rejects Boost.Multiprecision's traits for __int128 limbs. CUDA sources include
// this header only through the shared scalar math, whose oracle branches are templates they never
// instantiate (no kernel computes in the oracle dtype), so there the type is built on 64-bit limbs.
#include <boost/config.hpp>
#undef BOOST_HAS_INT128
#endif
#include <boost/multiprecision/cpp_bin_float.hpp>

namespace funcspec {

using oracle_t = boost::multiprecision::number<boost::multiprecision::cpp_bin_float<50>, boost::multiprecision::et_off>;

template <typename T>
inline constexpr bool is_oracle_v = std::is_same_v<T, oracle_t>;

}  // namespace funcspec
