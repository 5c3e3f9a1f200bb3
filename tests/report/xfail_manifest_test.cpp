#include "conformance/report/xfail_manifest.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "tests/report/report_test_support.h"

namespace funcspec::conformance {
namespace {

// The message of the XfailManifestError that parsing `text` raises.
std::string manifest_parse_error(std::string_view text) {
  try {
    XfailManifest::parse(text, "known.xfail");
  } catch (const XfailManifestError& e) {
    return e.what();
  }
  ADD_FAILURE() << "the manifest parsed";
  return "";
}

TEST(XfailManifestTest, ParsesEntriesCommentsAndBlankLines) {
  const XfailManifest manifest = XfailManifest::parse(
      "# known failures of my backend\n"
      "\n"
      "OPS-VALUES/sin/large   # range reduction is naive\n"
      "   \t\n"
      "  VMAP-*/randomness/*  #  no per-sample randomness yet  \n",
      "known.xfail");
  ASSERT_EQ(manifest.entries().size(), 2u);
  EXPECT_EQ(manifest.entries()[0].pattern, "OPS-VALUES/sin/large");
  EXPECT_EQ(manifest.entries()[0].reason, "range reduction is naive");
  EXPECT_EQ(manifest.entries()[0].line, 3);
  EXPECT_EQ(manifest.entries()[0].file, "known.xfail");
  EXPECT_EQ(manifest.entries()[1].pattern, "VMAP-*/randomness/*");
  EXPECT_EQ(manifest.entries()[1].reason, "no per-sample randomness yet");
  EXPECT_EQ(manifest.entries()[1].line, 5);
}

TEST(XfailManifestTest, AcceptsCrlfLineEndingsAndAByteOrderMark) {
  const XfailManifest manifest = XfailManifest::parse(
      "\xEF\xBB\xBF"
      "a/b  # why\r\nc/d # because\r\n");
  ASSERT_EQ(manifest.entries().size(), 2u);
  EXPECT_EQ(manifest.entries()[0].pattern, "a/b");
  EXPECT_EQ(manifest.entries()[1].reason, "because");
}

TEST(XfailManifestTest, EmptyTextIsAnEmptyManifest) { EXPECT_TRUE(XfailManifest::parse("").empty()); }

TEST(XfailManifestTest, MissingReasonIsAnErrorWithFileAndLine) {
  const std::string message = manifest_parse_error("# header\nOPS-VALUES/sin/large\n");
  EXPECT_NE(message.find("known.xfail:2:"), std::string::npos) << message;
  EXPECT_NE(message.find("no reason"), std::string::npos) << message;
}

TEST(XfailManifestTest, EmptyReasonAfterHashIsAnError) {
  EXPECT_NE(manifest_parse_error("a/b #   \n").find("known.xfail:1:"), std::string::npos);
}

TEST(XfailManifestTest, PatternWithBlanksIsAnError) {
  const std::string message = manifest_parse_error("ok/a # fine\nOPS-VALUES/sin large # reason\n");
  EXPECT_NE(message.find("known.xfail:2:"), std::string::npos) << message;
  EXPECT_NE(message.find("no blanks"), std::string::npos) << message;
}

TEST(XfailManifestTest, MalformedGlobIsAnError) {
  const std::string message = manifest_parse_error("OPS-[abc/* # reason\n");
  EXPECT_NE(message.find("known.xfail:1:"), std::string::npos) << message;
  EXPECT_NE(message.find("never closed"), std::string::npos) << message;
}

TEST(XfailManifestTest, DuplicatePatternNamesBothLines) {
  const std::string message = manifest_parse_error("a/b # one\n\na/b # two\n");
  EXPECT_NE(message.find("known.xfail:3:"), std::string::npos) << message;
  EXPECT_NE(message.find("line 1"), std::string::npos) << message;
}

TEST(XfailManifestTest, FirstMatchingEntryWins) {
  const XfailManifest manifest = XfailManifest::parse("OPS-VALUES/sin/* # first\nOPS-VALUES/* # second\n");
  const XfailEntry* sin = manifest.match("OPS-VALUES/sin/large");
  ASSERT_NE(sin, nullptr);
  EXPECT_EQ(sin->reason, "first");
  const XfailEntry* cos = manifest.match("OPS-VALUES/cos/large");
  ASSERT_NE(cos, nullptr);
  EXPECT_EQ(cos->reason, "second");
  EXPECT_EQ(manifest.match("VMAP/x"), nullptr);
}

TEST(XfailManifestTest, UnmatchedListsEntriesThatMatchedNothing) {
  const XfailManifest manifest = XfailManifest::parse("a/* # used\nb/* # stale\nc/d # stale too\n");
  manifest.match("a/1");
  manifest.match("z/1");
  ASSERT_EQ(manifest.unmatched().size(), 2u);
  EXPECT_EQ(manifest.unmatched()[0]->pattern, "b/*");
  EXPECT_EQ(manifest.unmatched()[1]->line, 3);
  EXPECT_EQ(manifest.unmatched_patterns(), (std::vector<std::string>{"b/*", "c/d"}));
}

TEST(XfailManifestTest, EntryShadowedByAnEarlierOneStaysUnmatched) {
  const XfailManifest manifest = XfailManifest::parse("a/* # broad\na/1 # narrow\n");
  manifest.match("a/1");
  EXPECT_EQ(manifest.unmatched_patterns(), std::vector<std::string>{"a/1"});
}

TEST(XfailManifestTest, LoadsAFileAndNamesItInErrors) {
  const auto path = testing_support::scratch_path("manifest.xfail");
  {
    std::ofstream out(path);
    out << "a/b # fine\nno-reason\n";
  }
  try {
    XfailManifest::load(path);
    ADD_FAILURE() << "the manifest loaded";
  } catch (const XfailManifestError& e) {
    EXPECT_NE(std::string(e.what()).find(path.string() + ":2:"), std::string::npos) << e.what();
  }
  std::filesystem::remove(path);
}

TEST(XfailManifestTest, MissingFileIsAnErrorNamingIt) {
  try {
    XfailManifest::load("/nonexistent/funcspec.xfail");
    ADD_FAILURE() << "the manifest loaded";
  } catch (const XfailManifestError& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/funcspec.xfail"), std::string::npos);
  }
}

}  // namespace
}  // namespace funcspec::conformance
