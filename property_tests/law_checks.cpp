#include "property_tests/law_checks.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <stdexcept>

#include "conformance/case/versioned_json.h"
#include "conformance/oracles/vmap_tolerance.h"
#include "conformance/suite/tensor_to_case.h"
#include "reference/api/ops.h"
#include "reference/ops/dispatch.h"

namespace funcspec::properties {

using conformance::Case;
using conformance::TensorData;
using Json = nlohmann::json;

namespace {

const Json& tolerance_table() {
  static const Json table = conformance::read_versioned_json(
      FUNCSPEC_PROPERTY_TOLERANCES_FILE, "funcspec-property-tolerances/1", "the property tolerance table");
  return table;
}

}  // namespace

conformance::Tolerance property_tolerance(std::string_view property, const TensorData& truth) {
  if (!is_floating(truth.dtype)) return {};
  const Json& table = tolerance_table();
  const std::string dtype(dtype_name(truth.dtype));
  const Json* entry = nullptr;
  const std::string id(property);
  if (table.contains("properties") && table["properties"].contains(id) && table["properties"][id].contains(dtype))
    entry = &table["properties"][id][dtype];
  if (entry == nullptr && table.contains("default") && table["default"].contains(dtype))
    entry = &table["default"][dtype];
  if (entry == nullptr || !(*entry)["atol"].is_number() || !(*entry)["rtol"].is_number())
    throw std::runtime_error(fmt::format("the property tolerance table has no entry for ({}, {})", id, dtype));
  double scale = 1;
  for (std::int64_t i = 0; i < truth.numel(); ++i) {
    const double v = truth.element_as_double(i);
    if (std::isfinite(v)) scale = std::max(scale, std::abs(v));
  }
  return {(*entry)["atol"].get<double>() * scale, (*entry)["rtol"].get<double>(), 0};
}

Case expecting_values(Case c, std::string_view property, const NamedResults& truth) {
  c.expect = {};
  for (const auto& [name, data] : truth) {
    conformance::ExpectedValue value;
    value.name = name;
    value.tensor.data = data;
    value.tolerance = property_tolerance(property, data);
    c.expect.values.push_back(std::move(value));
  }
  return c;
}

Case expecting_error(Case c, ErrorKind kind) {
  c.expect = {};
  c.expect.error = kind;
  return c;
}

std::optional<Case> expecting_reference_answer(const Case& c, std::string_view property) {
  const conformance::ProgramResult answer = conformance::run_on_reference(c);
  if (answer.unsupported || !answer.broken.empty() || answer.fault != conformance::Fault::None) return std::nullopt;
  if (answer.error) return expecting_error(c, *answer.error);
  return expecting_values(c, property, answer.outputs);
}

PropertyCheck judge_law(const PropertyContext& context, Case expectation, const std::string& what) {
  const conformance::Evaluation evaluation = conformance::judge(expectation, context.run(expectation));
  switch (evaluation.verdict) {
    case conformance::Verdict::Pass: return PropertyCheck::holds(evaluation.max_abs_error);
    case conformance::Verdict::Unsupported: return PropertyCheck::unsupported(evaluation.reason);
    case conformance::Verdict::Fail:
    case conformance::Verdict::Error: break;
  }
  return PropertyCheck::violated(fmt::format("{}: {}", what, evaluation.reason), std::move(expectation));
}

Answer ask(const PropertyContext& context, const Case& c) { return answer_of(context.run(c)); }

Answer answer_of(conformance::ProgramResult result) {
  Answer answer;
  if (result.unsupported) {
    answer.unsupported = *result.unsupported;
  } else if (result.fault != conformance::Fault::None || !result.broken.empty()) {
    answer.fault = result.broken.empty() ? std::string(conformance::fault_name(result.fault)) : result.broken;
  } else if (result.error) {
    answer.error = result.error;
  } else {
    answer.outputs = std::move(result.outputs);
  }
  return answer;
}

Tensor tensor_of(const TensorData& data) {
  conformance::TensorSpec spec;
  spec.data = data;
  return conformance::materialize_tensor(spec);
}

TensorData data_of(const Tensor& tensor) { return conformance::tensor_data_of(tensor); }

TensorList example_outputs(const Answer& answer, std::int64_t b, std::vector<std::string>& names) {
  if (answer.unsupported) throw LoopGaveUp{PropertyCheck::unsupported(*answer.unsupported)};
  if (!answer.fault.empty())
    throw LoopGaveUp{
        PropertyCheck::violated(fmt::format("the loop's example {} got no answer: {}", b, answer.fault), std::nullopt)};
  if (answer.error) throw Error(*answer.error, fmt::format("the loop's example {} raised", b));
  names.clear();
  TensorList outputs;
  for (const auto& [name, data] : *answer.outputs) {
    names.push_back(name);
    outputs.push_back(tensor_of(data));
  }
  return outputs;
}

Case expecting_loop_results(Case c, const std::vector<std::string>& names, const TensorList& stacked) {
  c.expect = {};
  for (std::size_t k = 0; k < stacked.size(); ++k) {
    conformance::ExpectedValue value;
    value.name = names.at(k);
    value.tensor.data = data_of(stacked[k]);
    value.tolerance = oracles::vmap_oracle_tolerance(oracles::ProgramAgainstOwnLoop{}, value.tensor.data);
    c.expect.values.push_back(std::move(value));
  }
  return c;
}

std::string pytree_difference(const transforms::PyTree& vmapped, const transforms::PyTree& looped) {
  if (vmapped.describe() != looped.describe())
    return fmt::format("vmap returned {} where the loop gives {}", vmapped.describe(), looped.describe());
  const std::vector<transforms::PyTree> a = vmapped.leaves();
  const std::vector<transforms::PyTree> b = looped.leaves();
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (!a[i].is_tensor() || !b[i].is_tensor()) continue;  // equal non-tensor leaves: describe() compared them
    const TensorData want = data_of(b[i].tensor());
    const conformance::Tolerance tolerance = oracles::vmap_oracle_tolerance(oracles::ProgramAgainstOwnLoop{}, want);
    if (const std::optional<std::string> differs = oracles::vmap_difference(data_of(a[i].tensor()), want, tolerance))
      return fmt::format("result leaf {}: {}", i, *differs);
  }
  return "";
}

std::vector<conformance::CaseInput> slice_inputs(const std::vector<conformance::CaseInput>& inputs,
                                                 const std::vector<std::optional<std::int64_t>>& in_dims,
                                                 std::int64_t index) {
  std::vector<conformance::CaseInput> out = inputs;
  for (std::size_t i = 0; i < out.size() && i < in_dims.size(); ++i) {
    if (!in_dims[i] || out[i].is_literal()) continue;
    const Tensor whole = conformance::materialize_tensor(std::get<conformance::TensorSpec>(out[i].value));
    // The example is the select itself, strides included: VMAP-1.1's example b is index b of the
    // argument along its in_dim, so a layout-sensitive op (view) meets the same strides in the loop
    // as under vmap.
    out[i] = conformance::case_input_of(out[i].name, ops::select(whole, *in_dims[i], index));
  }
  return out;
}

}  // namespace funcspec::properties
