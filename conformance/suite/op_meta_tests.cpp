// OPS-META/<op>/<n>-<label>: every sample of every op on the meta device (NOTE: [op sample cases]).
#include <fmt/format.h>

#include "conformance/suite/conformance_test.h"
#include "conformance/suite/op_sample_cases.h"
#include "conformance/suite/variant_samples.h"
#include "reference/ops/registry.h"

namespace funcspec::conformance {

void add_op_meta_tests(const SuiteOptions& options, ConformanceTests& tests) {
  for (const auto& [name, spec] : all_sample_specs()) {
    const OpDef* op = OpRegistry::instance().find(name);
    if (op == nullptr) continue;  // reported by the value tests
    const bool data_dependent = op->kind == OpKind::DynamicShape || op->kind == OpKind::ScalarExtraction;
    const std::vector<std::string> clauses{data_dependent ? "TENSOR-6.2" : "TENSOR-6.1"};
    SampleDraw drawn = draw_samples(spec, DType::Float64, options.seed, 0);
    if (!drawn.generation_error.empty()) {
      const std::string problem = fmt::format("generating the samples of {} failed: {}", name, drawn.generation_error);
      tests.push_back({fmt::format("OPS-META/{}/samples", name), clauses, Tier::Pr, "op sample database",
                       [problem]() -> Case { throw std::runtime_error(problem); }});
      continue;
    }
    for (std::size_t i = 0; i < drawn.calls.size(); ++i) {
      const std::string id = fmt::format("OPS-META/{}/{}-{}", name, i, id_slug(drawn.calls[i].sample.label));
      const Tier tier = i == 0 ? Tier::Smoke : Tier::Pr;
      tests.push_back(
          {id, clauses, tier, "op sample database",
           [call = std::move(drawn.calls[i]), id, clauses, tier]() { return op_meta_case(call, id, clauses, tier); }});
    }
  }
}

}  // namespace funcspec::conformance
