#pragma once
// Philox-4x32-10 (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3", SC'11): a
// counter-based generator. Output block i is a pure function of (key, counter i), so any element
// of any random op can be computed independently, in any order, on any device, with the same bits.
#include <cstdint>

#include "reference/core/host_device.h"

namespace funcspec::random {

// Four 32-bit words; a plain struct so the same type works in device code.
struct PhiloxBlock {
  std::uint32_t words[4];
  FUNCSPEC_HOST_DEVICE std::uint32_t operator[](int i) const { return words[i]; }
};

FUNCSPEC_HOST_DEVICE inline void mul_hi_lo(std::uint32_t a, std::uint32_t b, std::uint32_t& hi, std::uint32_t& lo) {
  const std::uint64_t product = static_cast<std::uint64_t>(a) * b;
  hi = static_cast<std::uint32_t>(product >> 32);
  lo = static_cast<std::uint32_t>(product);
}

// The block for 128-bit counter (counter_lo, counter_hi as two 64-bit halves) under a 64-bit key.
FUNCSPEC_HOST_DEVICE inline PhiloxBlock philox4x32_10(std::uint64_t key, std::uint64_t counter_lo,
                                                      std::uint64_t counter_hi = 0) {
  constexpr std::uint32_t kMul0 = 0xD2511F53u, kMul1 = 0xCD9E8D57u;
  constexpr std::uint32_t kWeyl0 = 0x9E3779B9u, kWeyl1 = 0xBB67AE85u;
  std::uint32_t c0 = static_cast<std::uint32_t>(counter_lo), c1 = static_cast<std::uint32_t>(counter_lo >> 32);
  std::uint32_t c2 = static_cast<std::uint32_t>(counter_hi), c3 = static_cast<std::uint32_t>(counter_hi >> 32);
  std::uint32_t k0 = static_cast<std::uint32_t>(key), k1 = static_cast<std::uint32_t>(key >> 32);
  for (int round = 0; round < 10; ++round) {
    std::uint32_t hi0, lo0, hi1, lo1;
    mul_hi_lo(kMul0, c0, hi0, lo0);
    mul_hi_lo(kMul1, c2, hi1, lo1);
    const std::uint32_t n0 = hi1 ^ c1 ^ k0, n1 = lo1, n2 = hi0 ^ c3 ^ k1, n3 = lo0;
    c0 = n0, c1 = n1, c2 = n2, c3 = n3;
    k0 += kWeyl0;
    k1 += kWeyl1;
  }
  return PhiloxBlock{{c0, c1, c2, c3}};
}

// NOTE: [random streams]
// A random op draws from a stream (seed, offset): its element i (row-major over the op's draw
// space) uses the block philox(key=seed, counter=offset+i). After the op the generator's offset
// advances by the number of blocks the op drew, so consecutive ops never share a block.
struct PhiloxStream {
  std::uint64_t seed = 0;
  std::uint64_t offset = 0;
  FUNCSPEC_HOST_DEVICE PhiloxBlock block(std::uint64_t i) const { return philox4x32_10(seed, offset + i); }
};

}  // namespace funcspec::random
