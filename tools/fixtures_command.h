#pragma once
// `funcspec fixtures regen` and `funcspec fixtures verify` (docs/fixtures.md): rewrite the golden
// fixtures, or check that they are what regeneration writes. Exit status 0 on success; verify
// exits 1 when the fixtures are out of date; 2 when the command cannot do its job (not a fixture
// directory, a malformed index or agreement file, a fixture the reference fails).
#include <cstdint>
#include <filesystem>
#include <ostream>

#include "conformance/case/case.h"

namespace funcspec::tools {

struct FixturesOptions {
  std::filesystem::path dir = "fixtures/golden";
  std::uint64_t seed = 20261121;  // regen only: verify takes both from the directory's index
  conformance::Tier tier = conformance::Tier::Pr;
};

int run_fixtures_regen(const FixturesOptions& options, std::ostream& out, std::ostream& err);
int run_fixtures_verify(const FixturesOptions& options, std::ostream& out, std::ostream& err);

}  // namespace funcspec::tools
