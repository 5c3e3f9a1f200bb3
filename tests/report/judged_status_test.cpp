#include "conformance/report/judged_status.h"

#include <gtest/gtest.h>

namespace funcspec::conformance {
namespace {

const XfailEntry kListed{"OPS-VALUES/sin/*", "range reduction is naive", "known.xfail", 7};

TEST(JudgedStatusTest, UnlistedVerdictsMapToTheirOwnStatus) {
  EXPECT_EQ(judged_status(Verdict::Pass, "", nullptr).status, TestStatus::Pass);
  EXPECT_EQ(judged_status(Verdict::Fail, "off by one", nullptr).status, TestStatus::Fail);
  EXPECT_EQ(judged_status(Verdict::Unsupported, "no sin", nullptr).status, TestStatus::Unsupported);
  EXPECT_EQ(judged_status(Verdict::Error, "crash", nullptr).status, TestStatus::Error);
}

TEST(JudgedStatusTest, UnlistedFailureKeepsTheJudgesReason) {
  EXPECT_EQ(judged_status(Verdict::Fail, "off by one", nullptr).reason, "off by one");
  EXPECT_EQ(judged_status(Verdict::Pass, "", nullptr).reason, "");
}

TEST(JudgedStatusTest, ListedFailureIsXfailWithBothReasons) {
  const JudgedStatus judged = judged_status(Verdict::Fail, "y[0] off by 3 ulps", &kListed);
  EXPECT_EQ(judged.status, TestStatus::Xfail);
  EXPECT_NE(judged.reason.find("range reduction is naive"), std::string::npos);
  EXPECT_NE(judged.reason.find("y[0] off by 3 ulps"), std::string::npos);
}

TEST(JudgedStatusTest, ListedPassIsXpassNamingTheEntry) {
  const JudgedStatus judged = judged_status(Verdict::Pass, "", &kListed);
  EXPECT_EQ(judged.status, TestStatus::Xpass);
  EXPECT_NE(judged.reason.find("known.xfail:7"), std::string::npos) << judged.reason;
}

TEST(JudgedStatusTest, ListedErrorStaysAnError) {
  const JudgedStatus judged = judged_status(Verdict::Error, "crash: signal 11", &kListed);
  EXPECT_EQ(judged.status, TestStatus::Error);
  EXPECT_NE(judged.reason.find("crash: signal 11"), std::string::npos);
}

TEST(JudgedStatusTest, ListedUnsupportedStaysUnsupported) {
  const JudgedStatus judged = judged_status(Verdict::Unsupported, "no float16", &kListed);
  EXPECT_EQ(judged.status, TestStatus::Unsupported);
  EXPECT_EQ(judged.reason, "no float16");
}

}  // namespace
}  // namespace funcspec::conformance
