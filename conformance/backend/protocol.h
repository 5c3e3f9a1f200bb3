#pragma once
// The messages of funcspec-protocol/1 (docs/protocol.md): one JSON object per line, shared by every
// transport. The suite side builds requests and validates replies; the backend side parses requests
// and builds replies. Both sides live here so that the two can never drift apart, and so that a
// plug-in author and a process author write against the same messages.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "conformance/backend/backend.h"
#include "conformance/case/case_json.h"

namespace funcspec::conformance {

inline constexpr std::string_view kProtocolVersion = "funcspec-protocol/1";

// The longest reply line the suite reads before calling the reply a protocol error.
inline constexpr std::size_t kMaxReplyLineBytes = std::size_t{1} << 30;

// A message the receiving side cannot accept. The message says what is wrong and quotes (a prefix
// of) the offending line.
// `id` is the request's id when the receiver could read one (so that a rejection can name it).
class ProtocolError : public std::runtime_error {
 public:
  explicit ProtocolError(const std::string& message, std::optional<std::uint64_t> id = std::nullopt)
      : std::runtime_error(message), id_(id) {}
  std::optional<std::uint64_t> id() const { return id_; }

 private:
  std::optional<std::uint64_t> id_;
};

// At most `limit` characters of `line`, with control characters escaped, for error messages.
std::string quote_line(std::string_view line, std::size_t limit = 160);

// --- the suite's side ---

std::string hello_request_line();
std::string bye_line();
// The capabilities a hello reply states. Throws ProtocolError for a malformed reply and for a
// refusal (an error reply), quoting the backend's message.
Capabilities parse_hello_reply(std::string_view line);

// The evaluate request for `c`: the case as case_to_json writes it, without `expect`, with every
// tensor inline as base64.
Json evaluate_request(const Case& c, std::uint64_t id);
std::string evaluate_request_line(const Case& c, std::uint64_t id);

// The result a reply carries for the request `id` about `c`. Never throws: a reply that breaks the
// protocol comes back as Fault::Protocol with the reason in `broken`.
ProgramResult parse_evaluate_reply(std::string_view line, std::uint64_t id, const Case& c);

// --- the backend's side ---

enum class RequestType { Hello, Evaluate, Bye };
struct Request {
  RequestType type = RequestType::Hello;
  std::uint64_t id = 0;  // evaluate only
  Case c;                // evaluate only; its expectation is a placeholder and means nothing
};

// Parses one request line. Throws ProtocolError naming the problem; a hello listing no version
// this side speaks is such an error too.
Request parse_request(std::string_view line);

Json hello_reply(const Capabilities& capabilities);
// The reply carrying `result` (outputs, an error kind, unsupported or failed).
Json evaluate_reply(std::uint64_t id, const ProgramResult& result);
// The reply to a message the backend cannot accept (the id when it could read one).
Json rejection_reply(std::optional<std::uint64_t> id, std::string_view message);

// One line of JSON (no newline): the form every message travels in.
std::string to_line(const Json& message);

}  // namespace funcspec::conformance
