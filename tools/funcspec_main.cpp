// The funcspec command line. With no subcommand it runs the main job: the op catalogue and the smoke
// evaluation of the reference backend.
#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <iostream>

#include "reference/backends/cuda/cuda_device.h"
#include "reference/core/error.h"
#include "tools/catalogue_report.h"
#include "tools/smoke_evaluation.h"

int main(int argc, char** argv) {
  using namespace funcspec;
  CLI::App app{"funcspec: the executable specification of composable function transforms"};
  app.require_subcommand(0, 1);

  std::string format = "text";
  std::string family;
  auto* ops = app.add_subcommand("ops", "Print the op catalogue");
  ops->add_option("--format", format, "text or markdown")->check(CLI::IsMember({"text", "markdown"}));
  ops->add_option("--family", family, "Only this op family");

  std::uint64_t seed = 20261121;
  bool verbose = false;
  auto* smoke = app.add_subcommand("smoke", "Check every op's samples: meta agreement, float64/float32 vs the oracle");
  smoke->add_option("--seed", seed, "Seed of the sample values and of random ops");
  smoke->add_flag("-v,--verbose", verbose, "Print passing checks with their largest error");

  CLI11_PARSE(app, argc, argv);
  try {
    const auto report_format = format == "markdown" ? tools::ReportFormat::Markdown : tools::ReportFormat::Text;
    if (*ops) {
      tools::print_catalogue(std::cout, report_format, family);
      return 0;
    }
    if (*smoke) return tools::run_smoke_evaluation(std::cout, seed, verbose) == 0 ? 0 : 1;
    // The main job.
    fmt::print("funcspec {} — reference backend (cpu; cuda: {})\n", "0.1", cuda::device_description());
    tools::print_catalogue(std::cout, tools::ReportFormat::Text, "");
    return tools::run_smoke_evaluation(std::cout, seed, verbose) == 0 ? 0 : 1;
  } catch (const Error& e) {
    fmt::print(stderr, "funcspec: error [{}]: {}\n", error_kind_name(e.kind()), e.what());
    return 2;
  }
}
