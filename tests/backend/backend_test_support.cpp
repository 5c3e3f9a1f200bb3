#include "tests/backend/backend_test_support.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

#include "conformance/case/evaluate.h"
#include "conformance/samples/op_samples.h"
#include "reference/ops/dispatch.h"
#include "reference/random/generator.h"

namespace funcspec::conformance::testing {

Case one_op_case(const std::string& op, bool binary) {
  Json j = Json::parse(R"({
    "format": "funcspec-case/1", "id": "BACKEND/x", "clauses": ["TEST-1"],
    "inputs": {"x": {"dtype": "float64", "shape": [2, 2], "data": [[1, 2], [3, -4.5]]}},
    "program": [{"out": ["y"], "op": "OP", "args": ["x"]}],
    "outputs": ["y"],
    "expect": {"error": "internal"}})");
  j["id"] = "BACKEND/" + op;
  j["program"][0]["op"] = op;
  if (binary) j["program"][0]["args"] = Json::array({"x", "x"});
  Case c = parse_case(j, op + ".json", ".");
  const ProgramResult result = run_on_reference(c);
  c.expect = Expectation{};
  for (const auto& [name, data] : result.outputs)
    c.expect.values.push_back({name, TensorSpec{data, "", false, {}}, {}});
  return c;
}

std::vector<Case> fixture_cases() {
  std::vector<std::filesystem::path> paths;
  for (const auto& entry : std::filesystem::directory_iterator(FUNCSPEC_FIXTURES_DIR "/cases")) {
    if (entry.path().extension() == ".json") paths.push_back(entry.path());
  }
  std::sort(paths.begin(), paths.end());
  std::vector<Case> cases;
  for (const auto& path : paths) cases.push_back(read_case_file(path));
  return cases;
}

std::vector<Case> generated_cases(std::size_t per_op) {
  std::vector<Case> cases;
  std::uint64_t seed = 1;
  for (const auto& [op, spec] : samples::OpSampleRegistry::instance().all()) {
    samples::SampleRng rng(seed++);
    const std::vector<samples::OpSample> drawn = spec.generate(DType::Float64, rng);
    for (std::size_t k = 0; k < std::min(per_op, drawn.size()); ++k) {
      const samples::OpSample& sample = drawn[k];
      Case c;
      c.id = fmt::format("GENERATED/{}/{}", op, k);
      c.seed = seed;
      OpCall step;
      step.op = op;
      step.attrs = sample.attrs;
      bool representable = true;
      for (std::size_t i = 0; i < sample.inputs.size(); ++i) {
        const Tensor& t = sample.inputs[i];
        if (!t.defined()) {
          step.args.emplace_back(std::nullopt);
          continue;
        }
        const std::string name = fmt::format("x{}", i);
        try {
          c.inputs.push_back({name, TensorSpec{tensor_data_of(t), "", false, {}}});
        } catch (const CaseError&) {
          representable = false;  // an oracle-dtype input: no case can hold it
        }
        step.args.emplace_back(name);
      }
      if (!representable) continue;
      // How many results the op gives is only known by calling it.
      std::size_t results = 1;
      try {
        random::GeneratorScope generator(c.seed);
        results = std::max<std::size_t>(1, funcspec::call(op, sample.inputs, sample.attrs).size());
      } catch (const std::exception&) {
      }
      for (std::size_t r = 0; r < results; ++r) step.outs.push_back(fmt::format("y{}", r));
      c.outputs = step.outs;
      c.program.push_back(std::move(step));
      c.expect.error = ErrorKind::Internal;
      cases.push_back(std::move(c));
    }
  }
  return cases;
}

bool contains(const std::string& text, const std::string& fragment) { return text.find(fragment) != std::string::npos; }

}  // namespace funcspec::conformance::testing
