// The protocol codec: requests and replies round-trip, and every malformed reply is a
// Fault::Protocol with a specific reason.
#include "conformance/backend/protocol.h"

#include <gtest/gtest.h>

#include "conformance/backend/protocol_server.h"
#include "conformance/backend/reference_backend.h"
#include "conformance/case/base64.h"
#include "conformance/case/evaluate.h"
#include "tests/backend/backend_test_support.h"

namespace funcspec::conformance {
namespace {

using testing::contains;

constexpr std::uint64_t kId = 5;

Json good_reply() { return evaluate_reply(kId, run_on_reference(testing::add_case())); }

// The reason parse_evaluate_reply gives for `reply`, which must be a protocol fault.
std::string protocol_reason(const std::string& line) {
  const ProgramResult result = parse_evaluate_reply(line, kId, testing::add_case());
  EXPECT_EQ(result.fault, Fault::Protocol) << line;
  return result.broken;
}

std::string reason_after(void (*edit)(Json&)) {
  Json reply = good_reply();
  edit(reply);
  return protocol_reason(to_line(reply));
}

TEST(ProtocolCodec, ResultRoundTrips) {
  const ProgramResult sent = run_on_reference(testing::add_case());
  const ProgramResult got = parse_evaluate_reply(to_line(evaluate_reply(kId, sent)), kId, testing::add_case());
  EXPECT_EQ(got.fault, Fault::None) << got.broken;
  EXPECT_EQ(got.outputs, sent.outputs);
}

TEST(ProtocolCodec, ErrorRoundTrips) {
  ProgramResult sent;
  sent.error = ErrorKind::DimOutOfRange;
  sent.error_message = "[sum] dim 3 is out of range";
  const ProgramResult got = parse_evaluate_reply(to_line(evaluate_reply(kId, sent)), kId, testing::add_case());
  EXPECT_EQ(got.error, ErrorKind::DimOutOfRange);
  EXPECT_EQ(got.error_message, sent.error_message);
  EXPECT_EQ(got.fault, Fault::None);
}

TEST(ProtocolCodec, UnsupportedAndFailedRoundTrip) {
  ProgramResult unsupported;
  unsupported.unsupported = "no float32 here";
  EXPECT_EQ(parse_evaluate_reply(to_line(evaluate_reply(kId, unsupported)), kId, testing::add_case()).unsupported,
            "no float32 here");
  ProgramResult failed;
  failed.broken = "program[0]: split returned 3 tensors but 'out' names 2";
  const ProgramResult got = parse_evaluate_reply(to_line(evaluate_reply(kId, failed)), kId, testing::add_case());
  EXPECT_EQ(got.broken, failed.broken);
  EXPECT_EQ(got.fault, Fault::None);
}

TEST(ProtocolCodec, HelloRoundTrips) {
  const Capabilities caps = reference_capabilities();
  const Capabilities got = parse_hello_reply(to_line(hello_reply(caps)));
  EXPECT_EQ(got.name, caps.name);
  EXPECT_EQ(got.version, caps.version);
  EXPECT_EQ(got.ops, caps.ops);
  EXPECT_EQ(got.transforms, caps.transforms);
  EXPECT_EQ(got.dtypes, caps.dtypes);
  EXPECT_EQ(got.devices, caps.devices);
  EXPECT_EQ(got.features, caps.features);
}

TEST(ProtocolCodec, HelloWithoutFeaturesStatesNone) {
  // A backend written for case format 1 names no features and still shakes hands (docs/protocol.md).
  Json hello = hello_reply(reference_capabilities());
  hello["capabilities"].erase("features");
  EXPECT_TRUE(parse_hello_reply(to_line(hello)).features.empty());
}

TEST(ProtocolCodec, EvaluateRequestCarriesTheCaseWithoutExpectationAndInline) {
  const Case c = testing::fixture_cases().front();
  const Json request = evaluate_request(c, kId);
  EXPECT_EQ(request["type"], "evaluate");
  EXPECT_EQ(request["id"], kId);
  EXPECT_FALSE(request["case"].contains("expect"));
  for (const auto& [name, input] : request["case"]["inputs"].items()) {
    EXPECT_TRUE(input.contains("literal") || input.contains("base64")) << name;
  }
  const Request parsed = parse_request(to_line(request));
  EXPECT_EQ(parsed.type, RequestType::Evaluate);
  EXPECT_EQ(parsed.id, kId);
  EXPECT_EQ(parsed.c.id, c.id);
  EXPECT_EQ(parsed.c.seed, c.seed);
  EXPECT_EQ(parsed.c.outputs, c.outputs);
  ASSERT_EQ(parsed.c.inputs.size(), c.inputs.size());
  for (std::size_t i = 0; i < c.inputs.size(); ++i) {
    if (c.inputs[i].is_literal()) continue;
    EXPECT_EQ(std::get<TensorSpec>(parsed.c.inputs[i].value).data, std::get<TensorSpec>(c.inputs[i].value).data);
  }
}

TEST(ProtocolCodec, NpyInputIsSentInline) {
  for (const Case& c : testing::fixture_cases()) {
    const std::string line = evaluate_request_line(c, kId);
    EXPECT_FALSE(contains(line, "\"npy\"")) << c.id;
  }
}

TEST(ProtocolCodec, RequestReferringToNpyIsRejected) {
  Json request = evaluate_request(testing::add_case(), kId);
  request["case"]["inputs"]["x"] = Json{{"npy", "x.npy"}};
  try {
    parse_request(to_line(request));
    FAIL() << "accepted";
  } catch (const ProtocolError& e) {
    EXPECT_TRUE(contains(e.what(), "refers to a .npy file"));
    EXPECT_EQ(e.id(), kId);
  }
}

TEST(ProtocolCodec, HelloOfferingOnlyOtherVersionsIsRefused) {
  EXPECT_THROW(parse_request(R"({"type":"hello","protocols":["funcspec-protocol/2"]})"), ProtocolError);
  ReferenceBackend backend;
  ProtocolServer server(backend);
  const ServerAnswer answer = server.answer(R"({"type":"hello","protocols":["funcspec-protocol/2"]})");
  EXPECT_TRUE(answer.finished);
  EXPECT_NE(answer.exit_status, 0);
  EXPECT_TRUE(contains(answer.reply, "\"type\":\"error\""));
}

TEST(ProtocolCodec, HelloRefusalIsReported) {
  try {
    parse_hello_reply(R"({"type":"error","message":"I only speak funcspec-protocol/2"})");
    FAIL() << "accepted";
  } catch (const ProtocolError& e) {
    EXPECT_TRUE(contains(e.what(), "refuses the handshake: I only speak funcspec-protocol/2")) << e.what();
  }
}

TEST(ProtocolCodec, HelloWithUnknownDtypeIsRefused) {
  Json hello = hello_reply(reference_capabilities());
  hello["capabilities"]["dtypes"].push_back("bfloat16");
  try {
    parse_hello_reply(to_line(hello));
    FAIL() << "accepted";
  } catch (const ProtocolError& e) {
    EXPECT_TRUE(contains(e.what(), "unknown dtype 'bfloat16'")) << e.what();
  }
}

TEST(ProtocolReply, NotJson) {
  const std::string reason = protocol_reason("Segmentation fault (core dumped)");
  EXPECT_TRUE(contains(reason, "is not JSON")) << reason;
  EXPECT_TRUE(contains(reason, "'Segmentation fault (core dumped)'")) << reason;
}

TEST(ProtocolReply, NotAnObject) { EXPECT_TRUE(contains(protocol_reason("[1, 2]"), "is a JSON array, not an object")); }

TEST(ProtocolReply, QuotesOnlyAPrefixOfALongLine) {
  const std::string reason = protocol_reason(std::string(100000, 'x'));
  EXPECT_LT(reason.size(), 1000u);
  EXPECT_TRUE(contains(reason, "(100000 bytes in all)")) << reason;
}

TEST(ProtocolReply, MissingType) {
  EXPECT_TRUE(contains(reason_after([](Json& r) { r.erase("type"); }), "has no 'type'"));
}

TEST(ProtocolReply, UnknownType) {
  EXPECT_TRUE(contains(reason_after([](Json& r) { r["type"] = "results"; }), "unknown type 'results'"));
}

TEST(ProtocolReply, MissingId) {
  EXPECT_TRUE(contains(reason_after([](Json& r) { r.erase("id"); }), "has no 'id'"));
}

TEST(ProtocolReply, WrongId) {
  EXPECT_TRUE(contains(reason_after([](Json& r) { r["id"] = 6; }), "answers request 6, not 5"));
}

TEST(ProtocolReply, MissingOutputs) {
  EXPECT_TRUE(contains(reason_after([](Json& r) { r.erase("outputs"); }), "has no 'outputs'"));
}

TEST(ProtocolReply, UnknownField) {
  EXPECT_TRUE(contains(reason_after([](Json& r) { r["elapsed"] = 1; }), "unknown field 'elapsed'"));
}

TEST(ProtocolReply, UnknownDtype) {
  EXPECT_TRUE(
      contains(reason_after([](Json& r) { r["outputs"]["y"]["dtype"] = "float16"; }), "unknown dtype 'float16'"));
}

TEST(ProtocolReply, NegativeSize) {
  EXPECT_TRUE(contains(reason_after([](Json& r) {
                         r["outputs"]["y"]["shape"] = Json::array({2, -2});
                       }),
                       "sizes must be integers >= 0"));
}

TEST(ProtocolReply, InvalidBase64) {
  EXPECT_TRUE(contains(reason_after([](Json& r) { r["outputs"]["y"]["base64"] = "abc"; }), "not valid padded base64"));
}

TEST(ProtocolReply, ByteCountDisagreesWithDtypeAndShape) {
  const std::string reason = reason_after([](Json& r) { r["outputs"]["y"]["shape"] = Json::array({2, 3}); });
  EXPECT_TRUE(contains(reason, "gives output 'y' 32 bytes of data, but [2, 3] float64 on cpu needs 48")) << reason;
}

TEST(ProtocolReply, OutputTheCaseDidNotAskFor) {
  const std::string reason = reason_after([](Json& r) { r["outputs"]["z"] = r["outputs"]["y"]; });
  EXPECT_TRUE(contains(reason, "has the output 'z', which the case does not ask for")) << reason;
}

TEST(ProtocolReply, MissingOutput) {
  EXPECT_TRUE(contains(reason_after([](Json& r) { r["outputs"] = Json::object(); }), "has no output 'y'"));
}

TEST(ProtocolReply, UnknownErrorKind) {
  const std::string line = R"({"type":"error","id":5,"kind":"out_of_cheese","message":"no"})";
  EXPECT_TRUE(contains(protocol_reason(line), "unknown error kind 'out_of_cheese'"));
}

TEST(ProtocolReply, RejectionOfTheRequest) {
  const std::string reason = protocol_reason(R"({"type":"error","id":5,"message":"cannot read the case"})");
  EXPECT_TRUE(contains(reason, "rejects the request: cannot read the case")) << reason;
}

TEST(ProtocolReply, WrongValuesOfTheRightShapeAreNotAProtocolError) {
  Json reply = good_reply();
  reply["outputs"]["y"]["base64"] = base64_encode(std::vector<std::uint8_t>(32, 0));
  const ProgramResult result = parse_evaluate_reply(to_line(reply), kId, testing::add_case());
  EXPECT_EQ(result.fault, Fault::None);
  EXPECT_EQ(judge(testing::add_case(), result).verdict, Verdict::Fail);
}

}  // namespace
}  // namespace funcspec::conformance
