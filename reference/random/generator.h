#pragma once
#include <cstdint>

#include "reference/random/philox.h"

namespace funcspec::random {

// The source of every random op's bits: a seed and an offset into the Philox counter space (NOTE:
// [random streams]). Each thread has a current generator; GeneratorScope installs a fresh one for
// a region (a case evaluation, a test), so every draw is reproducible from a printed seed.
class Generator {
 public:
  explicit Generator(std::uint64_t seed = 0) : seed_(seed) {}
  std::uint64_t seed() const { return seed_; }
  std::uint64_t offset() const { return offset_; }
  // How many random op calls drew from this generator, empty draws included (the offset alone
  // cannot tell that a size-0 draw happened).
  std::uint64_t draw_calls() const { return draw_calls_; }
  // The stream for an op drawing `blocks` blocks; advances the offset past them.
  PhiloxStream reserve(std::uint64_t blocks);
  // Moves to `offset`, so the draws from there on repeat (vmap's chunk_size replays a call's draws
  // per chunk; NOTE: [vmap randomness]).
  void set_offset(std::uint64_t offset) { offset_ = offset; }

 private:
  std::uint64_t seed_;
  std::uint64_t offset_ = 0;
  std::uint64_t draw_calls_ = 0;
};

Generator& current_generator();

class GeneratorScope {
 public:
  explicit GeneratorScope(std::uint64_t seed);
  ~GeneratorScope();
  GeneratorScope(const GeneratorScope&) = delete;
  GeneratorScope& operator=(const GeneratorScope&) = delete;

 private:
  Generator* previous_;
  Generator generator_;
};

}  // namespace funcspec::random
