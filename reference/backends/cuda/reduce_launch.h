#pragma once
// Launchers of the CUDA reductions (reduce.cu), called by the host glue (reduce.cpp). Plain C++17:
// nvcc compiles this header too.
//
// NOTE: [cuda reduction order]
// Every output element is reduced along a FIXED tree that depends only on R, the number of input
// elements reduced into it (never on the GPU, the launch configuration or timing), so results are
// the same bits on every run and every GPU. Positions r = 0..R-1 count the reduced elements in
// row-major order of the reduced index, as on the cpu (NOTE: [reduction order]).
//   R <= kReduceChunk (4096): one sequential fold from the identity, r = 0, 1, ..., R-1: exactly the
//     cpu's order, so every result equals the cpu's bit for bit (but for norms with p other than
//     0, 1, 2, +-inf: they call pow, which CUDA's library may round differently from the host's).
//   R >  kReduceChunk: level 0 cuts [0, R) into chunks of kReduceChunk consecutive positions (the
//     last one shorter) and folds each chunk sequentially from the identity; every further level
//     cuts the previous level's partials, in order, into groups of kReduceGroup and folds each group
//     sequentially from the identity; the first level left with one value gives the result.
// Sums and products fold in the cpu's accumulation type (float32 and float64 in float64 with
// round-to-nearest adds and multiplies that are never fused, bool and int64 in uint64 that wraps)
// and round once at the end. Integer and bool sums and products, all/any, amax/amin, argmax/argmin
// (first extreme, first NaN) and norm with p = 0 or +-inf are exact in any order, so they equal the
// cpu for every R; float sums, products and norms with R > 4096 may differ from the cpu's
// sequential order in rounding (the tree's error bound is the smaller: about 4096 + 256 * levels
// roundings deep instead of R). float32 sums accumulate in float64 and round once, so they almost
// always equal the cpu's anyway. How the tree is computed (one thread per chunk, or warps staging
// contiguous rows through shared memory) changes nothing in the result.
#include <cstdint>

#include "reference/backends/cuda/strided_view.h"

namespace funcspec::cuda {

inline constexpr std::int64_t kReduceChunk = 4096;
inline constexpr std::int64_t kReduceGroup = 256;

enum class ReduceKind { Sum, Prod, Amax, Amin, Argmax, Argmin, All, Any, Norm };

// Where the input elements of each output lie. Output o (row-major over the kept dims, the
// output's contiguous order) starts at offset_of(o, kept, kept_strides); its reduced position r
// lies offset_of(r, reduced, reduced_strides) further. Size-1 dims are dropped and neighbours that
// are one run in memory merged, which keeps both row-major orders; `reduced` has rank >= 1.
struct ReduceLayout {
  std::int64_t outputs = 0;  // number of output elements
  std::int64_t length = 0;   // R: input elements reduced into each output
  Geometry kept;
  std::int64_t kept_strides[kMaxDims] = {};
  Geometry reduced;
  std::int64_t reduced_strides[kMaxDims] = {};
};

// Runs reduction `kind` of the input at `in` (element type T) into the contiguous output at `out`:
// T for sum, prod, amax, amin and norm; int64 for argmax and argmin; bool for all and any. `p` is
// norm's order (0, inf, -inf or positive). Defined for T = bool, int64, float, double (norm: float
// and double; argmax/argmin: int64, float and double).
template <typename T>
void launch_reduce(ReduceKind kind, const T* in, void* out, const ReduceLayout& layout, double p);

}  // namespace funcspec::cuda
