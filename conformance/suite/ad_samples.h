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
#include "conformance/suite/op_sample_cases.h"
#include "reference/ops/op_def.h"

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
  Tier tier = Tier::Nightly;     // the cheapest tier that checks it (tier_samples.h)
  // Set when the sample is not one of the database's as drawn (a shrunk one): says what it is.
  std::string provenance;
};

// The sample as a check of `op`'s derivatives (at tier nightly), or nothing when it has none to
// check: no floating input, a non-finite input or result, an explicit result dtype, an error, a
// sample that declares it has none (OpSample::no_derivative), a derivative that raises
// (OpSample::derivative_error).
std::optional<AdCheckSample> checkable_sample(const std::string& name, const OpDef& op, const SampleCall& drawn_call,
                                              DType dtype, std::size_t index);

// Every checkable sample of every differentiable op, per (op, dtype), in op-name order: float64
// (and float32 from nightly on). A float64 sample is checked at pr when pr_sample_indices picks
// it (one per attribute set, every special point); every other one from nightly on.
struct AdOpSamples {
  std::string op;
  DType dtype = DType::Float64;
  std::vector<AdCheckSample> samples;
};
std::vector<AdOpSamples> ad_op_samples(const SuiteOptions& options);

// The higher-order families (second derivatives, vmap of jacobians and hessians) grow as the
// square of a sample's floating elements and are built in the 50-digit oracle dtype, so they check
// samples of at most this many floating elements.
inline constexpr std::int64_t higher_order_numel_limit = 12;

// The samples the higher-order families check: the op's samples within the limit (each at its own
// tier), and when none of those with elements reaches pr, the smallest with elements at pr. An op
// with no sample with elements within the limit (size-0 samples check shapes, not derivatives) is
// not skipped: its smallest sample with elements, shrunk (every dim cut to its first k elements,
// kept when the op still runs with results of the same count, dtypes and ranks), or else that
// sample as it is ("-smallest-sample"), is added at pr, with the id and `provenance` saying so.
std::vector<AdCheckSample> higher_order_samples(const AdOpSamples& op_samples);

// The sample's op as a one-step program over x0.. with results r0..; the case's outputs are the
// floating results.
Case program_case(const AdSample& s, const std::string& id, std::vector<std::string> clauses, Tier tier,
                  const OpFunction& f, std::size_t result_count);

// Appends s = sum_k sum(r_k * w_k) to the program, with the weights as inputs w0...
void add_scalarization(Case& c, const TensorList& weights);

ExpectedValue expected(const std::string& name, const Tensor& oracle_value, DType dtype,
                       std::optional<Tolerance> tolerance);
// A derivative of the sample's op, with the tolerance of `check` (derivative_tolerance.h).
ExpectedValue expected_derivative(const std::string& name, const Tensor& oracle_value, const AdSample& s,
                                  const std::string& check);

// The primal results' expectations, with the op's stated value tolerance.
void expect_primal_results(Case& c, const AdSample& s, const OpFunction& oracle);

ArgNums floating_argnums(const AdSample& s);

// Random weights of the results' shapes (for the scalarization s = sum(r * w)), in the sample's dtype.
TensorList weights_for(const OpFunction& oracle, const AdSample& s);

std::int64_t floating_numel(const samples::OpSample& sample, const std::vector<std::size_t>& floating);

}  // namespace funcspec::conformance::ad
