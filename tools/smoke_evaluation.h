#pragma once
#include <cstdint>
#include <ostream>

namespace funcspec::tools {

// Runs every op's samples through the catalogue-wide checks (meta agreement, float64 and float32
// against the oracle) and prints a line per failure and a summary per check. Returns the number of
// failed (op, check) pairs; ops without samples count as failures, so the catalogue cannot grow
// an unchecked op.
int run_smoke_evaluation(std::ostream& out, std::uint64_t seed, bool verbose);

}  // namespace funcspec::tools
