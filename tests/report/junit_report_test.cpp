#include "conformance/report/junit_report.h"

#include <gtest/gtest.h>

#include "tests/report/report_test_support.h"
#include "tests/report/xml_checker.h"

namespace funcspec::conformance {
namespace {

using testing_support::collect;
using testing_support::sample_report;
using testing_support::XmlChecker;
using testing_support::XmlElement;

XmlElement parse_junit(const Report& report) {
  XmlChecker checker;
  const std::string text = write_junit_text(report);
  const std::optional<XmlElement> root = checker.parse(text);
  EXPECT_TRUE(root.has_value()) << checker.error() << "\n" << text;
  return root.value_or(XmlElement{});
}

const XmlElement* testcase_named(const XmlElement& root, std::string_view name) {
  std::vector<const XmlElement*> cases;
  collect(root, "testcase", cases);
  for (const XmlElement* c : cases) {
    if (c->attributes.at("name") == name) return c;
  }
  return nullptr;
}

const XmlElement* child(const XmlElement& element, std::string_view name) {
  for (const XmlElement& c : element.children) {
    if (c.name == name) return &c;
  }
  return nullptr;
}

TEST(JunitReportTest, OneSuiteNamedAfterTheBackendWithTotals) {
  const XmlElement root = parse_junit(sample_report());
  EXPECT_EQ(root.name, "testsuites");
  ASSERT_EQ(root.children.size(), 1u);
  const XmlElement& suite = root.children[0];
  EXPECT_EQ(suite.name, "testsuite");
  EXPECT_NE(suite.attributes.at("name").find("my-backend"), std::string::npos);
  EXPECT_EQ(suite.attributes.at("tests"), "7");
  EXPECT_EQ(suite.attributes.at("failures"), "2");  // fail and xpass
  EXPECT_EQ(suite.attributes.at("errors"), "1");
  EXPECT_EQ(suite.attributes.at("skipped"), "2");  // unsupported and skip
}

TEST(JunitReportTest, SuitePropertiesCarrySeedAndBackend) {
  const XmlElement root = parse_junit(sample_report());
  std::vector<const XmlElement*> properties;
  collect(*child(root.children[0], "properties"), "property", properties);
  std::map<std::string, std::string> values;
  for (const XmlElement* p : properties) values[p->attributes.at("name")] = p->attributes.at("value");
  EXPECT_EQ(values["seed"], "42");
  EXPECT_EQ(values["backend"], "exec:./my-backend --fast");
  EXPECT_EQ(values["tier"], "smoke");
}

TEST(JunitReportTest, AnInterruptedRunHasTheSignalAsAProperty) {
  Report report = sample_report();
  report.run.interrupted = "SIGTERM";
  const XmlElement root = parse_junit(report);
  std::vector<const XmlElement*> properties;
  collect(*child(root.children[0], "properties"), "property", properties);
  std::map<std::string, std::string> values;
  for (const XmlElement* p : properties) values[p->attributes.at("name")] = p->attributes.at("value");
  EXPECT_EQ(values["interrupted"], "SIGTERM");
}

TEST(JunitReportTest, ClassnameAndNameSplitTheIdAtTheLastSlash) {
  const XmlElement root = parse_junit(sample_report());
  const XmlElement* test = testcase_named(root, "broadcast");
  ASSERT_NE(test, nullptr);
  EXPECT_EQ(test->attributes.at("classname"), "OPS-VALUES.add");
  EXPECT_EQ(test->attributes.at("time"), "0.250");
  EXPECT_EQ(child(*test, "failure"), nullptr);
}

TEST(JunitReportTest, FailureCarriesReasonErrorToleranceAndReplay) {
  const XmlElement root = parse_junit(sample_report());
  const XmlElement* failure = child(*testcase_named(root, "large"), "failure");
  ASSERT_NE(failure, nullptr);
  EXPECT_EQ(failure->attributes.at("message"), "y[3]: expected 1, got 2");
  EXPECT_NE(failure->text.find("abs inf"), std::string::npos) << failure->text;
  EXPECT_NE(failure->text.find("tolerance: atol 0 rtol 0 ulps 2"), std::string::npos) << failure->text;
  EXPECT_NE(failure->text.find("replay: funcspec replay funcspec-failures/OPS-VALUES_sin_large.json"),
            std::string::npos);
}

TEST(JunitReportTest, StatusesMapToJunitElements) {
  const XmlElement root = parse_junit(sample_report());
  EXPECT_NE(child(*testcase_named(root, "zero"), "failure"), nullptr);  // xpass
  EXPECT_NE(child(*testcase_named(root, "crash"), "error"), nullptr);
  EXPECT_NE(child(*testcase_named(root, "empty"), "skipped"), nullptr);  // unsupported
  EXPECT_NE(child(*testcase_named(root, "grad"), "skipped"), nullptr);   // skip
  const XmlElement* xfail = testcase_named(root, "nan");
  EXPECT_EQ(child(*xfail, "failure"), nullptr);
  ASSERT_NE(child(*xfail, "system-out"), nullptr);
  EXPECT_NE(child(*xfail, "system-out")->text.find("expected failure: known"), std::string::npos);
}

TEST(JunitReportTest, TestcasePropertiesListClauses) {
  const XmlElement root = parse_junit(sample_report());
  std::vector<const XmlElement*> properties;
  collect(*testcase_named(root, "broadcast"), "property", properties);
  bool found = false;
  for (const XmlElement* p : properties) {
    if (p->attributes.at("name") == "clauses") {
      EXPECT_EQ(p->attributes.at("value"), "OPS-VALUES-1, TENSOR-BROADCAST-1");
      found = true;
    }
  }
  EXPECT_TRUE(found);
}

TEST(JunitReportTest, MarkupAndControlCharactersAreEscaped) {
  Report report = sample_report();
  report.tests[1].reason = "a<b & \"c\" 'd' ]]> \x01\x1b\x7f\n\ttab \xFF \xEF\xBF\xBE ok é";
  report.tests[1].id = "OPS/<weird>&/\"name\"\x02";
  const XmlElement root = parse_junit(report);
  std::vector<const XmlElement*> failures;
  collect(root, "failure", failures);
  ASSERT_FALSE(failures.empty());
  const XmlElement& failure = *failures[0];
  EXPECT_EQ(failure.attributes.at("message"), "a<b & \"c\" 'd' ]]> \\x01\\x1B\\x7F");
  EXPECT_NE(failure.text.find("\n\ttab \\xFF \\xEF\\xBF\\xBE ok é"), std::string::npos) << failure.text;
}

TEST(JunitReportTest, EscapeKeepsNewlinesInAttributesAsReferences) {
  EXPECT_EQ(xml_escape("a\nb\tc\rd", true), "a&#10;b&#9;c&#13;d");
  EXPECT_EQ(xml_escape("a\nb\tc", false), "a\nb\tc");
}

TEST(JunitReportTest, EscapeRejectsOverlongAndSurrogateUtf8) {
  EXPECT_EQ(xml_escape("\xC0\xAF", false), "\\xC0\\xAF");
  EXPECT_EQ(xml_escape("\xED\xA0\x80", false), "\\xED\\xA0\\x80");
  EXPECT_EQ(xml_escape("\xF0\x9F\x98\x80", false), "\xF0\x9F\x98\x80");
  EXPECT_EQ(xml_escape("\xE2\x82", false), "\\xE2\\x82");  // truncated
}

TEST(JunitReportTest, EmptyReportIsWellFormed) {
  Report report;
  const XmlElement root = parse_junit(report);
  EXPECT_EQ(root.children.at(0).attributes.at("tests"), "0");
}

}  // namespace
}  // namespace funcspec::conformance
