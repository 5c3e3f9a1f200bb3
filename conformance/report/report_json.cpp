#include "conformance/report/report_json.h"

#include <fmt/format.h>

#include <fstream>
#include <limits>
#include <set>
#include <sstream>

namespace funcspec::conformance {

namespace {

Json tolerance_to_json(const Tolerance& tolerance) {
  Json out = Json::object();
  out["atol"] = float_to_json(tolerance.atol);
  out["rtol"] = float_to_json(tolerance.rtol);
  out["ulps"] = tolerance.ulps;
  return out;
}

Json optional_float(const std::optional<double>& value) { return value ? float_to_json(*value) : Json(nullptr); }

Json counts_to_json(const std::map<TestStatus, int>& counts) {
  Json out = Json::object();
  for (TestStatus status : kAllTestStatuses) {
    const auto found = counts.find(status);
    out[std::string(test_status_name(status))] = found == counts.end() ? 0 : found->second;
  }
  return out;
}

Json run_to_json(const RunInfo& run) {
  Json out = Json::object();
  out["backend"] = {{"spec", run.backend.spec}, {"name", run.backend.name}, {"version", run.backend.version}};
  out["seed"] = run.seed;
  out["tier"] = std::string(tier_name(run.tier));
  out["filter"] = run.filter;
  out["funcspec_version"] = run.funcspec_version;
  out["command_line"] = run.command_line;
  out["shard_index"] = run.shard_index;
  out["shard_count"] = run.shard_count;
  out["merged_shards"] = run.merged_shards;
  out["xfail_unmatched"] = run.xfail_unmatched;
  out["seconds"] = float_to_json(run.seconds);
  if (!run.interrupted.empty()) out["interrupted"] = run.interrupted;
  return out;
}

Json test_to_json(const TestRecord& test) {
  Json out = Json::object();
  out["id"] = test.id;
  out["clauses"] = test.clauses;
  out["status"] = std::string(test_status_name(test.status));
  out["reason"] = test.reason;
  out["max_abs_error"] = optional_float(test.max_abs_error);
  out["max_ulp_error"] = optional_float(test.max_ulp_error);
  out["tolerance"] = test.tolerance ? tolerance_to_json(*test.tolerance) : Json(nullptr);
  out["replay_case"] = test.replay_case;
  out["replay_command"] = test.replay_command;
  out["seconds"] = float_to_json(test.seconds);
  out["note"] = test.note;
  return out;
}

// Reading: every accessor takes the JSON path of the value, so each error names the field.
class Reader {
 public:
  explicit Reader(std::string file) : file_(std::move(file)) {}

  [[noreturn]] void fail(const std::string& path, const std::string& problem) const {
    throw ReportError(fmt::format("{}: {}: {}", file_, path.empty() ? "(top level)" : path, problem));
  }

  // The object's fields must be exactly `fields`, and any of `optional`: a missing field and an
  // unknown one are both errors.
  const Json& object(const Json& json, const std::string& path, std::initializer_list<std::string_view> fields,
                     std::initializer_list<std::string_view> optional = {}) const {
    if (!json.is_object()) fail(path, fmt::format("expected an object, found {}", json.type_name()));
    for (std::string_view field : fields) {
      if (!json.contains(field)) fail(join(path, field), "missing field");
    }
    for (const auto& [key, value] : json.items()) {
      bool known = false;
      for (std::string_view field : fields) known = known || field == key;
      for (std::string_view field : optional) known = known || field == key;
      if (!known) fail(join(path, key), "unknown field");
    }
    return json;
  }

  std::string string(const Json& json, const std::string& path) const {
    if (!json.is_string()) fail(path, fmt::format("expected a string, found {}", json.type_name()));
    return json.get<std::string>();
  }

  std::vector<std::string> strings(const Json& json, const std::string& path) const {
    if (!json.is_array()) fail(path, fmt::format("expected an array of strings, found {}", json.type_name()));
    std::vector<std::string> out;
    for (std::size_t i = 0; i < json.size(); ++i) out.push_back(string(json[i], index(path, i)));
    return out;
  }

  double number(const Json& json, const std::string& path) const {
    if (json.is_number()) return json.get<double>();
    if (json.is_string()) {
      const std::string text = json.get<std::string>();
      if (text == "inf" || text == "+inf") return std::numeric_limits<double>::infinity();
      if (text == "-inf") return -std::numeric_limits<double>::infinity();
      if (text == "nan") return std::numeric_limits<double>::quiet_NaN();
      fail(path, fmt::format("expected a number, \"inf\", \"-inf\" or \"nan\", found \"{}\"", text));
    }
    fail(path, fmt::format("expected a number, found {}", json.type_name()));
  }

  std::optional<double> optional_number(const Json& json, const std::string& path) const {
    if (json.is_null()) return std::nullopt;
    return number(json, path);
  }

  std::int64_t integer(const Json& json, const std::string& path, std::int64_t low, std::int64_t high) const {
    if (!json.is_number_integer()) fail(path, fmt::format("expected an integer, found {}", json.type_name()));
    if (json.is_number_unsigned() && json.get<std::uint64_t>() > static_cast<std::uint64_t>(high)) {
      fail(path, fmt::format("{} is out of range [{}, {}]", json.get<std::uint64_t>(), low, high));
    }
    const auto value = json.get<std::int64_t>();
    if (value < low || value > high) fail(path, fmt::format("{} is out of range [{}, {}]", value, low, high));
    return value;
  }

  std::uint64_t unsigned_integer(const Json& json, const std::string& path) const {
    if (!json.is_number_unsigned()) {
      fail(path,
           fmt::format("expected an unsigned integer, found {}", json.is_number() ? json.dump() : json.type_name()));
    }
    return json.get<std::uint64_t>();
  }

  static std::string join(const std::string& path, std::string_view field) {
    return path.empty() ? std::string(field) : fmt::format("{}.{}", path, field);
  }
  static std::string index(const std::string& path, std::size_t i) { return fmt::format("{}[{}]", path, i); }

 private:
  std::string file_;
};

constexpr int kMaxShards = 1 << 20;

RunInfo parse_run(const Reader& r, const Json& json, const std::string& path) {
  r.object(json, path,
           {"backend", "seed", "tier", "filter", "funcspec_version", "command_line", "shard_index", "shard_count",
            "merged_shards", "xfail_unmatched", "seconds"},
           {"interrupted"});
  RunInfo run;
  const std::string backend_path = Reader::join(path, "backend");
  const Json& backend = r.object(json["backend"], backend_path, {"spec", "name", "version"});
  run.backend.spec = r.string(backend["spec"], Reader::join(backend_path, "spec"));
  run.backend.name = r.string(backend["name"], Reader::join(backend_path, "name"));
  run.backend.version = r.string(backend["version"], Reader::join(backend_path, "version"));
  run.seed = r.unsigned_integer(json["seed"], Reader::join(path, "seed"));
  const std::string tier = r.string(json["tier"], Reader::join(path, "tier"));
  const std::optional<Tier> parsed_tier = parse_tier(tier);
  if (!parsed_tier) {
    r.fail(Reader::join(path, "tier"),
           fmt::format("unknown tier \"{}\" (expected smoke, pr, nightly or exhaustive)", tier));
  }
  run.tier = *parsed_tier;
  run.filter = r.string(json["filter"], Reader::join(path, "filter"));
  run.funcspec_version = r.string(json["funcspec_version"], Reader::join(path, "funcspec_version"));
  run.command_line = r.string(json["command_line"], Reader::join(path, "command_line"));
  run.shard_count = static_cast<int>(r.integer(json["shard_count"], Reader::join(path, "shard_count"), 1, kMaxShards));
  run.shard_index =
      static_cast<int>(r.integer(json["shard_index"], Reader::join(path, "shard_index"), -1, run.shard_count - 1));
  const std::string merged_path = Reader::join(path, "merged_shards");
  if (!json["merged_shards"].is_array()) r.fail(merged_path, "expected an array of shard indices");
  for (std::size_t i = 0; i < json["merged_shards"].size(); ++i) {
    run.merged_shards.push_back(
        static_cast<int>(r.integer(json["merged_shards"][i], Reader::index(merged_path, i), 0, run.shard_count - 1)));
  }
  if ((run.shard_index == -1) != !run.merged_shards.empty()) {
    r.fail(Reader::join(path, "shard_index"),
           "shard_index is -1 exactly when merged_shards lists the shards of a merge");
  }
  run.xfail_unmatched = r.strings(json["xfail_unmatched"], Reader::join(path, "xfail_unmatched"));
  run.seconds = r.number(json["seconds"], Reader::join(path, "seconds"));
  if (json.contains("interrupted")) {
    run.interrupted = r.string(json["interrupted"], Reader::join(path, "interrupted"));
    if (run.interrupted.empty()) r.fail(Reader::join(path, "interrupted"), "names the signal, or is absent");
  }
  return run;
}

Tolerance parse_tolerance(const Reader& r, const Json& json, const std::string& path) {
  r.object(json, path, {"atol", "rtol", "ulps"});
  Tolerance tolerance;
  tolerance.atol = r.number(json["atol"], Reader::join(path, "atol"));
  tolerance.rtol = r.number(json["rtol"], Reader::join(path, "rtol"));
  tolerance.ulps = r.integer(json["ulps"], Reader::join(path, "ulps"), 0, std::numeric_limits<std::int64_t>::max());
  return tolerance;
}

TestRecord parse_test(const Reader& r, const Json& json, const std::string& path) {
  r.object(json, path,
           {"id", "clauses", "status", "reason", "max_abs_error", "max_ulp_error", "tolerance", "replay_case",
            "replay_command", "seconds", "note"});
  TestRecord test;
  test.id = r.string(json["id"], Reader::join(path, "id"));
  if (test.id.empty()) r.fail(Reader::join(path, "id"), "a test id is never empty");
  test.clauses = r.strings(json["clauses"], Reader::join(path, "clauses"));
  const std::string status = r.string(json["status"], Reader::join(path, "status"));
  const std::optional<TestStatus> parsed_status = parse_test_status(status);
  if (!parsed_status) {
    r.fail(
        Reader::join(path, "status"),
        fmt::format("unknown status \"{}\" (expected pass, fail, xfail, xpass, unsupported, skip or error)", status));
  }
  test.status = *parsed_status;
  test.reason = r.string(json["reason"], Reader::join(path, "reason"));
  test.max_abs_error = r.optional_number(json["max_abs_error"], Reader::join(path, "max_abs_error"));
  test.max_ulp_error = r.optional_number(json["max_ulp_error"], Reader::join(path, "max_ulp_error"));
  if (!json["tolerance"].is_null()) {
    test.tolerance = parse_tolerance(r, json["tolerance"], Reader::join(path, "tolerance"));
  }
  test.replay_case = r.string(json["replay_case"], Reader::join(path, "replay_case"));
  test.replay_command = r.string(json["replay_command"], Reader::join(path, "replay_command"));
  test.seconds = r.number(json["seconds"], Reader::join(path, "seconds"));
  test.note = r.string(json["note"], Reader::join(path, "note"));
  return test;
}

}  // namespace

Json report_to_json(const Report& report) {
  Json out = Json::object();
  out["format"] = std::string(kReportFormat);
  out["run"] = run_to_json(report.run);
  Json tests = Json::array();
  for (const TestRecord& test : report.tests) tests.push_back(test_to_json(test));
  out["tests"] = std::move(tests);

  const Summary summary = summarize(report.tests);
  Json clauses = Json::object();
  for (const auto& [clause, clause_summary] : summary.by_clause) {
    clauses[clause] = {{"by_status", counts_to_json(clause_summary.by_status)}, {"verdict", clause_summary.verdict}};
  }
  out["summary"] = {{"tests", report.tests.size()},
                    {"by_status", counts_to_json(summary.by_status)},
                    {"by_clause", std::move(clauses)}};
  return out;
}

std::string write_report_text(const Report& report) {
  // A backend's error message may hold any bytes; invalid UTF-8 becomes U+FFFD rather than an
  // exception that would lose the whole report.
  return report_to_json(report).dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

void write_report_file(const Report& report, const std::filesystem::path& path) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw ReportError(fmt::format("{}: cannot open the report for writing", path.string()));
  out << write_report_text(report);
  out.flush();
  if (!out) throw ReportError(fmt::format("{}: cannot write the report", path.string()));
}

Report parse_report(const Json& json, const std::string& file) {
  const Reader r(file);
  if (!json.is_object()) r.fail("", fmt::format("a report is a JSON object, found {}", json.type_name()));
  if (!json.contains("format")) r.fail("format", fmt::format("missing field (expected \"{}\")", kReportFormat));
  if (!json["format"].is_string() || json["format"].get<std::string>() != kReportFormat) {
    r.fail("format", fmt::format("expected \"{}\", found {}", kReportFormat, json["format"].dump()));
  }
  r.object(json, "", {"format", "run", "tests", "summary"});
  Report report;
  report.run = parse_run(r, json["run"], "run");
  if (!json["tests"].is_array()) r.fail("tests", fmt::format("expected an array, found {}", json["tests"].type_name()));
  std::set<std::string, std::less<>> ids;
  for (std::size_t i = 0; i < json["tests"].size(); ++i) {
    const std::string path = Reader::index("tests", i);
    TestRecord test = parse_test(r, json["tests"][i], path);
    if (!ids.insert(test.id).second) r.fail(Reader::join(path, "id"), fmt::format("duplicate test id \"{}\"", test.id));
    report.tests.push_back(std::move(test));
  }
  if (!json["summary"].is_object()) r.fail("summary", "expected an object");
  return report;
}

namespace {

Json parsed_json(std::string_view text, const std::string& source) {
  try {
    return Json::parse(text);
  } catch (const Json::parse_error& e) {
    throw ReportError(fmt::format("{}: not valid JSON: {}", source, e.what()));
  }
}

}  // namespace

Report parse_report_text(std::string_view text, const std::string& file) {
  return parse_report(parsed_json(text, file), file);
}

std::string write_test_record_line(const TestRecord& record) {
  return test_to_json(record).dump(-1, ' ', false, Json::error_handler_t::replace);
}

TestRecord parse_test_record_line(std::string_view line, const std::string& source) {
  return parse_test(Reader(source), parsed_json(line, source), "");
}

Report read_report_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ReportError(fmt::format("{}: cannot open the report", path.string()));
  std::ostringstream contents;
  contents << in.rdbuf();
  return parse_report_text(contents.str(), path.string());
}

}  // namespace funcspec::conformance
