// OPS-VALUES/<op>/<dtype>/<n>-<label>: every sample of every op, with float64 and with float32
// inputs, judged against the oracle (NOTE: [op sample cases]).
#include <fmt/format.h>

#include "conformance/suite/conformance_test.h"
#include "conformance/suite/op_sample_cases.h"
#include "conformance/suite/tensor_to_case.h"
#include "conformance/suite/variant_samples.h"
#include "reference/ops/registry.h"

namespace funcspec::conformance {
namespace {

bool any_strided_input(const samples::OpSample& sample) {
  for (const Tensor& t : sample.inputs) {
    if (t.defined() && !t.is_wrapped_number() && t.device() == Device::Cpu && is_strided(t)) return true;
  }
  return false;
}

// The clauses a value test checks, beyond the dtype's OPS-1.x: what kind of op it is and how its
// inputs are laid out. OPS-1.3 and OPS-2.1 depend on the outcome and are added when the case is built.
std::vector<std::string> kind_clauses(const OpDef& op, const samples::OpSample& sample) {
  std::vector<std::string> clauses;
  // TENSOR-4.1 is the in-place op that writes its first argument (not batch_norm's running statistics).
  const std::vector<const ArgSpec*> tensor_args = op.schema.tensor_args();
  if (op.kind == OpKind::InPlace && !tensor_args.empty() && tensor_args.front()->mutated)
    clauses.push_back("TENSOR-4.1");
  if (op.kind == OpKind::OutVariant) clauses.push_back("TENSOR-5.1");
  if (op.kind == OpKind::Random) clauses.push_back("GEN-2.1");
  if (any_strided_input(sample)) clauses.push_back("TENSOR-7.1");
  return clauses;
}

}  // namespace

void add_op_value_tests(const SuiteOptions& options, ConformanceTests& tests) {
  // An op nobody wrote samples for is a hole in the suite: it shows as an error, not as silence.
  for (const OpDef* op : OpRegistry::instance().all()) {
    if (all_sample_specs().count(op->name()) != 0) continue;
    const std::string problem = fmt::format("no samples are declared for the op {}", op->name());
    tests.push_back({fmt::format("OPS-VALUES/{}/samples", op->name()),
                     {"OPS-1.1"},
                     Tier::Smoke,
                     "op sample database",
                     [problem]() -> Case { throw std::runtime_error(problem); }});
  }
  for (const auto& [name, spec] : all_sample_specs()) {
    const OpDef* op = OpRegistry::instance().find(name);
    for (DType floating : {DType::Float64, DType::Float32}) {
      for (int draw = 0; draw < sample_draws(options.tier); ++draw) {
        const std::string prefix = draw == 0
                                       ? fmt::format("OPS-VALUES/{}/{}/", name, dtype_name(floating))
                                       : fmt::format("OPS-VALUES/{}/{}/draw{}-", name, dtype_name(floating), draw);
        const std::string dtype_clause = floating == DType::Float64 ? "OPS-1.1" : "OPS-1.2";
        const Tier tier = draw == 0 ? Tier::Pr : draw < 3 ? Tier::Nightly : Tier::Exhaustive;
        SampleDraw drawn = draw_samples(spec, floating, options.seed, draw);
        if (!drawn.generation_error.empty() || op == nullptr) {
          const std::string problem =
              op == nullptr ? fmt::format("{} has samples but is not in the catalogue", name)
                            : fmt::format("generating the samples of {} failed: {}", name, drawn.generation_error);
          tests.push_back({prefix + "samples", {dtype_clause}, tier, "op sample database", [problem]() -> Case {
                             throw std::runtime_error(problem);
                           }});
          continue;
        }
        for (std::size_t i = 0; i < drawn.calls.size(); ++i) {
          SampleCall call = std::move(drawn.calls[i]);
          std::vector<std::string> clauses{dtype_clause};
          for (std::string& clause : kind_clauses(*op, call.sample)) clauses.push_back(std::move(clause));
          // The first sample of each op in float64 is the smoke run: every op, once.
          const Tier test_tier = draw == 0 && i == 0 && floating == DType::Float64 ? Tier::Smoke : tier;
          const std::string id = fmt::format("{}{}-{}", prefix, i, id_slug(call.sample.label));
          tests.push_back(
              {id, clauses, test_tier, "op sample database", [call = std::move(call), id, clauses, test_tier]() {
                 Case c = op_value_case(call, id, clauses, test_tier);
                 // What the outcome adds: an error kind, or exact integer results.
                 if (c.expect.error) {
                   c.clauses.insert(c.clauses.begin() + 1, "OPS-2.1");
                 } else {
                   for (const ExpectedValue& v : c.expect.values) {
                     if (!is_floating(v.tensor.data.dtype)) {
                       c.clauses.insert(c.clauses.begin() + 1, "OPS-1.3");
                       break;
                     }
                   }
                 }
                 return c;
               }});
        }
      }
    }
  }
}

}  // namespace funcspec::conformance
