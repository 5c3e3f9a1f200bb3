#pragma once
// The samples the generated AD families check (docs/SPEC.md AD-8.x), and the skeleton their cases
// share: every op of the sample database whose results are differentiable, so an op added later
// reaches every family without a line here.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "conformance/case/case.h"
#include "conformance/samples/op_samples.h"
#include "conformance/suite/conformance_test.h"
#include "conformance/suite/derivative_oracle.h"

namespace funcspec::conformance::ad {

struct AdSample {
  const samples::OpSampleSpec* spec = nullptr;
  samples::OpSample sample;
  DType dtype = DType::Float64;  // of the floating inputs
  std::uint64_t seed = 0;
  std::vector<std::size_t> floating;
};

// One checkable sample of one op: its function (in the sample's dtype) and how it is named.
struct AdCheckSample {
  AdSample s;
  OpFunction f;
  std::size_t result_count = 0;  // of the op call, floating or not
  std::size_t index = 0;         // in the op's sample list
  std::string suffix;            // "<n>-<label>", "float32/<n>-<label>"
};

// The checkable samples of every differentiable op, per (op, dtype), in op-name order: the first
// sample of each (float64) below nightly; every sample (and float32) from nightly on.
struct AdOpSamples {
  std::string op;
  DType dtype = DType::Float64;
  std::vector<AdCheckSample> samples;
};
std::vector<AdOpSamples> ad_op_samples(const SuiteOptions& options);

// The sample's op as a one-step program over x0.. with results r0..; the case's outputs are the
// floating results.
Case program_case(const AdSample& s, const std::string& id, std::vector<std::string> clauses, Tier tier,
                  const OpFunction& f, std::size_t result_count);

// Appends s = sum_k sum(r_k * w_k) to the program, with the weights as inputs w0...
void add_scalarization(Case& c, const TensorList& weights);

ExpectedValue expected(const std::string& name, const Tensor& oracle_value, DType dtype,
                       std::optional<Tolerance> tolerance);
ExpectedValue expected_derivative(const std::string& name, const Tensor& oracle_value, DType dtype,
                                  const std::string& check, const std::string& op);

// The primal results' expectations, with the op's stated value tolerance.
void expect_primal_results(Case& c, const AdSample& s, const OpFunction& oracle);

ArgNums floating_argnums(const AdSample& s);

// Random weights of the results' shapes (for the scalarization s = sum(r * w)), in the sample's dtype.
TensorList weights_for(const OpFunction& oracle, const AdSample& s);

std::int64_t floating_numel(const samples::OpSample& sample, const std::vector<std::size_t>& floating);

}  // namespace funcspec::conformance::ad
