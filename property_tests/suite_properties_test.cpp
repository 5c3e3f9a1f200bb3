// Every property of the suite holds for the reference engine, through the same Backend interface an
// external backend is judged by. The tier comes from FUNCSPEC_PROPERTY_TIER (the sanitizer build runs
// the smoke tier; everything else the pr tier), the seed from FUNCSPEC_PROPERTY_SEED, so a failure
// found elsewhere replays here.
#include <gtest/gtest.h>

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "conformance/backend/backend.h"
#include "property_tests/property.h"
#include "property_tests/property_runner.h"

namespace funcspec::properties {
namespace {

class SuiteProperty : public testing::TestWithParam<std::size_t> {};

TEST_P(SuiteProperty, HoldsForTheReference) {
  const PropertyDef property = all_properties().at(GetParam());
  const std::unique_ptr<conformance::Backend> reference = conformance::make_backend("reference");
  const PropertyRunOptions options = run_options_from_environment("funcspec-artifacts/property-tests");
  const conformance::TestRecord record = run_property(property, *reference, options);
  RecordProperty("note", record.note);
  EXPECT_EQ(record.status, conformance::TestStatus::Pass)
      << property.id << ": " << conformance::test_status_name(record.status) << "\n"
      << record.reason << "\n"
      << record.note << (record.replay_case.empty() ? "" : "\nreplay: " + record.replay_case);
  std::printf("%s: %s\n", property.id.c_str(), record.note.c_str());
}

std::string property_test_name(const testing::TestParamInfo<std::size_t>& info) {
  const std::string id = all_properties().at(info.param).id;
  std::string name;
  for (char ch : id) name.push_back(std::isalnum(static_cast<unsigned char>(ch)) ? ch : '_');
  return name;
}

INSTANTIATE_TEST_SUITE_P(AllProperties, SuiteProperty, testing::Range<std::size_t>(0, all_properties().size()),
                         property_test_name);

}  // namespace
}  // namespace funcspec::properties
