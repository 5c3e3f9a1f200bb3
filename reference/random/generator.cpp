#include "reference/random/generator.h"

namespace funcspec::random {
namespace {

Generator& thread_default_generator() {
  thread_local Generator generator(0);
  return generator;
}

thread_local Generator* current = nullptr;

}  // namespace

PhiloxStream Generator::reserve(std::uint64_t blocks) {
  PhiloxStream stream{seed_, offset_};
  offset_ += blocks;
  ++draw_calls_;
  return stream;
}

Generator& current_generator() { return current != nullptr ? *current : thread_default_generator(); }

GeneratorScope::GeneratorScope(std::uint64_t seed) : previous_(current), generator_(seed) { current = &generator_; }

GeneratorScope::~GeneratorScope() { current = previous_; }

}  // namespace funcspec::random
