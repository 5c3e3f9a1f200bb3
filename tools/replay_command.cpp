#include "tools/replay_command.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "conformance/backend/backend.h"
#include "conformance/case/case_json.h"
#include "conformance/case/judge.h"

namespace funcspec::tools {

using namespace conformance;

int run_replay(const std::string& case_file, const std::string& backend_spec, double timeout_seconds) {
  Case c;
  std::unique_ptr<Backend> backend;
  try {
    c = read_case_file(case_file);
    backend = make_backend(backend_spec);
  } catch (const std::exception& e) {
    fmt::print(stderr, "funcspec replay: {}\n", e.what());
    return 2;
  }
  fmt::print("case {} [{}] on {} ({} {}), seed {}\n", c.id, fmt::join(c.clauses, ", "), backend_spec,
             backend->capabilities().name, backend->capabilities().version, c.seed);
  if (!c.description.empty()) fmt::print("  {}\n", c.description);
  const EvaluateOptions options{std::chrono::milliseconds(static_cast<std::int64_t>(timeout_seconds * 1000))};
  const Evaluation ev = judge(c, backend->evaluate(c, options));
  fmt::print("verdict: {}\n", verdict_name(ev.verdict));
  if (!ev.reason.empty()) fmt::print("  {}\n", ev.reason);
  if (c.expect.error) {
    fmt::print("  expected the error {}\n", error_kind_name(*c.expect.error));
  } else if ((ev.verdict == Verdict::Pass || ev.verdict == Verdict::Fail) &&
             std::any_of(c.expect.values.begin(), c.expect.values.end(),
                         [](const ExpectedValue& v) { return !v.tensor.values_omitted; })) {
    fmt::print("  max error {:.3g} ({:.3g} ulps); tolerance atol {:.3g}, rtol {:.3g}, ulps {}\n", ev.max_abs_error,
               ev.max_ulp_error, ev.tolerance.atol, ev.tolerance.rtol, ev.tolerance.ulps);
  }
  if (ev.result.error)
    fmt::print("  the backend raised {}: {}\n", error_kind_name(*ev.result.error), ev.result.error_message);
  return ev.verdict == Verdict::Pass ? 0 : 1;
}

}  // namespace funcspec::tools
