#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <type_traits>

#include "reference/core/oracle.h"

namespace funcspec {

// The element types of the reference. `Oracle` is a high-precision float (see oracle.h) that runs
// through the same kernels as float32/float64 and serves as ground truth for them.
enum class DType : std::uint8_t { Bool, Int64, Float32, Float64, Oracle };

inline constexpr std::array<DType, 5> kAllDTypes = {DType::Bool, DType::Int64, DType::Float32, DType::Float64,
                                                    DType::Oracle};

// PyTorch's default floating dtype: what integer inputs become under "int to float" ops and what a
// Python float literal counts as in type promotion.
inline constexpr DType kDefaultFloat = DType::Float32;

std::string_view dtype_name(DType dtype);
std::optional<DType> parse_dtype(std::string_view name);

constexpr bool is_floating(DType d) { return d == DType::Float32 || d == DType::Float64 || d == DType::Oracle; }
constexpr bool is_integral(DType d) { return d == DType::Int64; }

// Rank of a dtype within the promotion lattice bool < int64 < float32 < float64 < oracle.
constexpr int promotion_rank(DType d) { return static_cast<int>(d); }

template <typename T>
constexpr DType dtype_of() {
  if constexpr (std::is_same_v<T, bool>)
    return DType::Bool;
  else if constexpr (std::is_same_v<T, std::int64_t>)
    return DType::Int64;
  else if constexpr (std::is_same_v<T, float>)
    return DType::Float32;
  else if constexpr (std::is_same_v<T, double>)
    return DType::Float64;
  else {
    static_assert(std::is_same_v<T, oracle_t>, "not a funcspec scalar type");
    return DType::Oracle;
  }
}

template <typename T>
inline constexpr bool is_floating_v = std::is_floating_point_v<T> || is_oracle_v<T>;

// Calls `fn.template operator()<T>()` with T the C++ element type of `dtype`; kernels are written
// once as templates and instantiated for every dtype through this.
template <typename Fn>
decltype(auto) visit_dtype(DType dtype, Fn&& fn) {
  switch (dtype) {
    case DType::Bool: return fn.template operator()<bool>();
    case DType::Int64: return fn.template operator()<std::int64_t>();
    case DType::Float32: return fn.template operator()<float>();
    case DType::Float64: return fn.template operator()<double>();
    case DType::Oracle: return fn.template operator()<oracle_t>();
  }
  __builtin_unreachable();
}

// Same, restricted to the floating dtypes; a non-floating dtype is an internal error (the op layer
// must have rejected or promoted it already).
template <typename Fn>
decltype(auto) visit_floating_dtype(DType dtype, Fn&& fn);

std::size_t itemsize(DType dtype);

}  // namespace funcspec

#include "reference/core/dtype_inl.h"
