#include "tools/smoke_evaluation.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <chrono>

#include "conformance/samples/sample_checks.h"
#include "reference/ops/registry.h"

namespace funcspec::tools {

int run_smoke_evaluation(std::ostream& out, std::uint64_t seed, bool verbose) {
  const auto start = std::chrono::steady_clock::now();
  fmt::print(out, "smoke evaluation: seed {} (reproduce with `funcspec smoke --seed {}`)\n", seed, seed);
  int failed = 0, passed = 0, samples = 0;
  std::vector<std::string> missing;
  for (const OpDef* op : OpRegistry::instance().all()) {
    // Derived variants are checked through their functional op's samples by the unit tests.
    if (!op->functional.empty()) continue;
    const samples::OpSampleSpec* spec = samples::OpSampleRegistry::instance().find(op->name());
    if (spec == nullptr) {
      missing.push_back(op->name());
      continue;
    }
    for (const samples::SampleVerdict& v :
         {samples::check_meta_agrees(*spec, seed), samples::check_oracle_agrees(*spec, DType::Float64, seed),
          samples::check_oracle_agrees(*spec, DType::Float32, seed)}) {
      samples += v.samples_run;
      if (v.passed()) {
        ++passed;
        if (verbose)
          fmt::print(out, "  pass {:<22} {:<16} {} samples ({} agreeing errors), max error {:.3g} ulps\n", v.op,
                     v.check, v.samples_run, v.error_samples, v.max_error_ulps);
      } else {
        ++failed;
        for (const std::string& f : v.failures) fmt::print(out, "  FAIL {:<16} {}\n", v.check, f);
      }
    }
  }
  for (const std::string& name : missing) fmt::print(out, "  FAIL no samples declared for op '{}'\n", name);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  fmt::print(out, "smoke: {} checks passed, {} failed, {} ops without samples ({} samples, {:.1f} s)\n", passed, failed,
             missing.size(), samples, seconds);
  return failed + static_cast<int>(missing.size());
}

}  // namespace funcspec::tools
