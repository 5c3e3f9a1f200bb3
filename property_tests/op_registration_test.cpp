// Adding an op puts it under every catalogue-driven property with no new test code. This test
// registers softsign(x) = x / (1 + |x|) as a user would: the op through OpRegistry::add (schema,
// canonicalize, infer, cpu kernel); its batching and jvp rules on that op for as long as the test
// needs them (ScopedBatchRule, ScopedJvpRule, NOTE: [rules replaced for a scope]: the catalogue's
// own ops get theirs while it is built); its samples through samples::register_op_samples. Its jvp
// divides the tangent by a constant, an op that already has a transpose rule, so reverse mode needs
// nothing more. Then properties_for_op runs the vmap, gradient and error properties on programs
// that call it: the correct op passes every one, and a copy whose jvp rule forgets a square, or
// whose batching rule puts the batch dim in the wrong place, is caught. The same op written as a
// composite (calls of abs, add and div; no rules of its own) passes them too and composite
// compliance besides, and a copy that short-cuts an all-zero input by calling item() is caught by
// composite compliance.
//
// Ops and samples cannot be unregistered, and a registered op joins every program the suite draws
// from then on. So each registration runs in a child process of its own: this process keeps the
// built-in catalogue, and the suite's other tests draw the same programs (from the same seeds)
// whether or not this test ran first, and never meet a deliberately wrong op.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>
#include <nlohmann/json.hpp>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "conformance/backend/backend.h"
#include "conformance/samples/op_samples.h"
#include "property_tests/property.h"
#include "property_tests/property_runner.h"
#include "reference/api/ops.h"
#include "reference/backends/cpu/elementwise.h"
#include "reference/ops/dispatch.h"
#include "reference/ops/registry.h"
#include "reference/transforms/op_rules.h"

namespace funcspec::properties {
namespace {

using Json = nlohmann::json;

// How a registered copy of softsign is wrong, if at all.
enum class Flaw {
  None,
  // The jvp rule divides by 1 + |x| where the derivative is 1 / (1 + |x|)^2.
  JvpNotSquared,
  // The batching rule says the batch dim is 0 whatever dim the batch came in at.
  BatchDimAlwaysZero,
};

void register_softsign_samples(const std::string& name) {
  samples::register_op_samples({name,
                                [](DType floating, samples::SampleRng& rng) {
                                  return std::vector<samples::OpSample>{
                                      {{rng.tensor({2, 3}, floating, -3.0, 3.0)}, {}, "2x3"},
                                      {{rng.tensor({5}, floating, -3.0, 3.0)}, {}, "5 values"},
                                      {{rng.strided_tensor({3, 4}, floating, -3.0, 3.0)}, {}, "transposed 3x4"},
                                      {{rng.tensor({}, floating, -3.0, 3.0)}, {}, "rank 0"},
                                      {{rng.tensor({0, 3}, floating, -3.0, 3.0)}, {}, "size-0 dim"},
                                  };
                                },
                                // Three roundings (abs is exact): 1 + |x|, the division.
                                {2.0, 2.0, 0.0, 0.0},
                                ""});
}

// softsign as a user-written composite; with `calls_item` it first asks whether the input is all
// zeros (a data-dependent short cut, the commonest way a composite breaks under transforms).
void register_softsign_composite(const std::string& name, bool calls_item) {
  OpDef& op = OpRegistry::instance().add(fmt::format("{}(Tensor self) -> Tensor", name), OpKind::Composite, "user",
                                         "self / (1 + |self|), as calls of abs, add and div");
  op.decompose = [calls_item](const TensorList& in, const Attrs&) -> TensorList {
    if (calls_item && ops::item(ops::all(call_one("eq", {in[0], ops::lit(0)}))).to_vector<double>()[0] != 0)
      return {ops::clone(in[0])};
    return {ops::div(in[0], ops::add(ops::abs(in[0]), ops::lit(1)))};
  };
  register_softsign_samples(name);
}

void register_softsign_op(const std::string& name) {
  OpDef& op = OpRegistry::instance().add(fmt::format("{}(Tensor self) -> Tensor", name), OpKind::Primitive, "user",
                                         "self / (1 + |self|)");
  op.canonicalize = [](const TensorList& in, const Attrs&) { return TensorList{in[0]}; };
  op.infer = [name](const TensorList& in, const Attrs&) -> std::vector<TensorMeta> {
    FUNCSPEC_CHECK(is_floating(in[0].dtype()), ErrorKind::DtypeNotSupported, "[{}] takes a floating tensor, not {}",
                   name, dtype_name(in[0].dtype()));
    return {{in[0].shape(), in[0].dtype()}};
  };
  // The oracle dtype too: the gradient properties take finite differences in it.
  op.cpu_kernel = [](const KernelArgs& a) {
    visit_floating_dtype(a.inputs[0].dtype(), [&]<typename T>() {
      cpu::map1<T, T>(a.inputs[0], a.outputs[0], [](const T& x) { return x / (T(1) + (x < T(0) ? T(-x) : x)); });
    });
  };
  register_softsign_samples(name);
}

// Its rules, for as long as the returned handles live (which, in the child, is until it exits).
std::vector<std::shared_ptr<void>> softsign_rules(const std::string& name, Flaw flaw) {
  std::vector<std::shared_ptr<void>> rules;
  rules.push_back(std::make_shared<transforms::ScopedBatchRule>(
      name,
      [name, flaw](const transforms::BatchedValues& in, const Attrs& attrs,
                   const transforms::BatchContext&) -> transforms::BatchedValues {
        const transforms::BatchedValue& self = in.at(0);
        std::optional<std::int64_t> bdim = self.bdim;
        if (flaw == Flaw::BatchDimAlwaysZero && bdim) bdim = 0;
        return {{call_one(name, {self.value}, attrs), bdim}};
      }));
  rules.push_back(std::make_shared<transforms::ScopedJvpRule>(name, [flaw](const transforms::JvpCall& c) -> TensorList {
    if (!c.tangents[0].defined()) return {Tensor()};
    const Tensor denominator = ops::add(ops::abs(c.primals[0]), ops::lit(1));
    return {ops::div(c.tangents[0], flaw == Flaw::JvpNotSquared ? denominator : ops::square(denominator))};
  }));
  return rules;
}

constexpr const char* kArtifacts = "funcspec-artifacts/op-registration";

struct Verdict {
  std::string id;
  std::string status;
  std::string reason;
};

// Registers an op and returns what must stay alive while it is used (its rules).
using Registration = std::function<std::vector<std::shared_ptr<void>>()>;

Registration softsign_primitive(const std::string& name, Flaw flaw) {
  return [name, flaw] {
    register_softsign_op(name);
    return softsign_rules(name, flaw);
  };
}

Registration softsign_composite(const std::string& name, bool calls_item) {
  return [name, calls_item] {
    register_softsign_composite(name, calls_item);
    return std::vector<std::shared_ptr<void>>{};
  };
}

// Runs `registration` of `name` in a child process, runs the properties properties_for_op gives for
// it whose ids are in `ids` (all of them when empty) against the reference, and returns their
// verdicts; a child that fails to report is a test failure.
std::vector<Verdict> verdicts_in_a_child(const std::string& name, const Registration& registration,
                                         const std::vector<std::string>& ids, const PropertyRunOptions& options) {
  int pipe_ends[2];
  if (pipe(pipe_ends) != 0) {
    ADD_FAILURE() << "pipe: " << std::strerror(errno);
    return {};
  }
  std::fflush(nullptr);  // nothing buffered is written twice
  const pid_t child = fork();
  if (child < 0) {
    ADD_FAILURE() << "fork: " << std::strerror(errno);
    return {};
  }
  if (child == 0) {
    close(pipe_ends[0]);
    Json report = Json::array();
    try {
      const std::vector<std::shared_ptr<void>> rules = registration();
      const std::unique_ptr<conformance::Backend> reference = conformance::make_backend("reference");
      for (const PropertyDef& property : properties_for_op(name)) {
        if (!ids.empty() && std::find(ids.begin(), ids.end(), property.id) == ids.end()) continue;
        const conformance::TestRecord record = run_property(property, *reference, options);
        report.push_back({{"id", record.id},
                          {"status", std::string(conformance::test_status_name(record.status))},
                          {"reason", record.reason.empty() ? record.note : record.reason + "\n" + record.note}});
      }
    } catch (const std::exception& e) {
      report.push_back({{"id", "(the child)"}, {"status", "error"}, {"reason", e.what()}});
    }
    const std::string text = report.dump();
    std::size_t written = 0;
    while (written < text.size()) {
      const ssize_t n = write(pipe_ends[1], text.data() + written, text.size() - written);
      if (n <= 0) _exit(2);
      written += static_cast<std::size_t>(n);
    }
    _exit(0);
  }
  close(pipe_ends[1]);
  std::string text;
  char buffer[4096];
  for (ssize_t n; (n = read(pipe_ends[0], buffer, sizeof buffer)) != 0;) {
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) break;
    text.append(buffer, static_cast<std::size_t>(n));
  }
  close(pipe_ends[0]);
  int status = 0;
  waitpid(child, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    ADD_FAILURE() << "the child registering " << name << " died (wait status " << status << ")";
    return {};
  }
  std::vector<Verdict> verdicts;
  for (const Json& v : Json::parse(text))
    verdicts.push_back(
        {v.at("id").get<std::string>(), v.at("status").get<std::string>(), v.at("reason").get<std::string>()});
  return verdicts;
}

// A wrong rule must be caught at the tier CI runs, whatever the environment asks for.
PropertyRunOptions pr_tier() {
  PropertyRunOptions options = run_options_from_environment(kArtifacts);
  options.tier = conformance::Tier::Pr;
  return options;
}

std::string op_id(const std::string& property, const std::string& op) { return property + "[" + op + "]"; }

// The ids of `verdicts`, each expected to pass (and printed, so a run shows what ran on the op).
std::set<std::string> ids_expecting_every_pass(const std::vector<Verdict>& verdicts) {
  std::set<std::string> ids;
  for (const Verdict& v : verdicts) {
    ids.insert(v.id);
    EXPECT_EQ(v.status, "pass") << v.id << ": " << v.reason;
    std::printf("%s: %s (%s)\n", v.id.c_str(), v.status.c_str(), v.reason.c_str());
  }
  return ids;
}

TEST(OpRegistration, ARegisteredOpPassesEveryCatalogueDrivenProperty) {
  // Not "softsign": the catalogue has its own (docs/ops/activation.md).
  const std::vector<Verdict> verdicts =
      verdicts_in_a_child("softsign_primitive", softsign_primitive("softsign_primitive", Flaw::None), {},
                          run_options_from_environment(kArtifacts));
  ASSERT_FALSE(verdicts.empty());
  // Every kind of catalogue-driven law ran on it: vmap, gradient and error consistency.
  const std::set<std::string> ids = ids_expecting_every_pass(verdicts);
  EXPECT_TRUE(ids.contains(op_id("PROP-VMAP/equals-loop", "softsign_primitive")));
  EXPECT_TRUE(ids.contains(op_id("PROP-AD/jvp-equals-finite-differences", "softsign_primitive")))
      << "the gradient properties did not run on the registered op";
  EXPECT_TRUE(ids.contains(op_id("PROP-ERR/errors-match-reference", "softsign_primitive")));
  EXPECT_FALSE(ids.contains(op_id("PROP-COMPOSITE/checked-mode-compliant", "softsign_primitive")))
      << "a primitive has no composite to check";
}

TEST(OpRegistration, ARegisteredCompositePassesEveryCatalogueDrivenPropertyAndCompositeCompliance) {
  const std::vector<Verdict> verdicts =
      verdicts_in_a_child("softsign_composite", softsign_composite("softsign_composite", false), {},
                          run_options_from_environment(kArtifacts));
  ASSERT_FALSE(verdicts.empty());
  const std::set<std::string> ids = ids_expecting_every_pass(verdicts);
  EXPECT_TRUE(ids.contains(op_id("PROP-COMPOSITE/checked-mode-compliant", "softsign_composite")));
  EXPECT_TRUE(ids.contains(op_id("PROP-AD/vjp-transposes-jvp", "softsign_composite")));
}

TEST(OpRegistration, ACompositeCallingItemIsCaughtByCompositeCompliance) {
  const std::string id = op_id("PROP-COMPOSITE/checked-mode-compliant", "softsign_item");
  const std::vector<Verdict> verdicts =
      verdicts_in_a_child("softsign_item", softsign_composite("softsign_item", true), {id}, pr_tier());
  ASSERT_EQ(verdicts.size(), 1u) << id << " did not run";
  EXPECT_EQ(verdicts[0].status, "fail") << verdicts[0].reason;
  EXPECT_NE(verdicts[0].reason.find("item()"), std::string::npos) << verdicts[0].reason;
  std::printf("%s: %s\n", verdicts[0].id.c_str(), verdicts[0].reason.c_str());
}

TEST(OpRegistration, AWrongJvpRuleIsCaughtByFiniteDifferences) {
  const std::string id = op_id("PROP-AD/jvp-equals-finite-differences", "softsign_wrong");
  const std::vector<Verdict> verdicts =
      verdicts_in_a_child("softsign_wrong", softsign_primitive("softsign_wrong", Flaw::JvpNotSquared), {id}, pr_tier());
  ASSERT_EQ(verdicts.size(), 1u) << id << " did not run: is PROP-AD/jvp-equals-finite-differences catalogue-driven?";
  EXPECT_EQ(verdicts[0].id, id);
  EXPECT_EQ(verdicts[0].status, "fail") << verdicts[0].reason;
  std::printf("%s: %s\n", verdicts[0].id.c_str(), verdicts[0].reason.c_str());
}

TEST(OpRegistration, AWrongBatchingRuleIsCaughtByEqualsLoop) {
  const std::string id = op_id("PROP-VMAP/equals-loop", "softsign_wrong_batching");
  const std::vector<Verdict> verdicts =
      verdicts_in_a_child("softsign_wrong_batching",
                          softsign_primitive("softsign_wrong_batching", Flaw::BatchDimAlwaysZero), {id}, pr_tier());
  ASSERT_EQ(verdicts.size(), 1u) << id << " did not run";
  EXPECT_EQ(verdicts[0].id, id);
  EXPECT_EQ(verdicts[0].status, "fail") << verdicts[0].reason;
  std::printf("%s: %s\n", verdicts[0].id.c_str(), verdicts[0].reason.c_str());
}

}  // namespace
}  // namespace funcspec::properties
