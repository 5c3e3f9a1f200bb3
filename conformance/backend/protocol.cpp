#include "conformance/backend/protocol.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <initializer_list>
#include <map>
#include <utility>
#include <variant>
#include <vector>

#include "conformance/case/base64.h"

namespace funcspec::conformance {

namespace {

// Reads one received line, turning every problem into a ProtocolError that quotes the line.
class MessageReader {
 public:
  MessageReader(std::string_view line, std::string what) : line_(line), what_(std::move(what)) {}

  [[noreturn]] void fail(std::string_view problem, std::optional<std::uint64_t> id = std::nullopt) const {
    throw ProtocolError(fmt::format("{} {}; the line was {}", what_, problem, quote_line(line_)), id);
  }

  Json parse() const {
    Json message;
    try {
      message = Json::parse(line_);
    } catch (const nlohmann::json::exception& e) {
      // nlohmann's message names the byte where parsing stopped.
      fail(fmt::format("is not JSON ({})", e.what()));
    }
    if (!message.is_object()) fail(fmt::format("is a JSON {}, not an object", message.type_name()));
    return message;
  }

  std::string type_of(const Json& message) const {
    if (!message.contains("type")) fail("has no 'type'");
    return string_of(message, "type");
  }

  // Every key of `message` is one of `allowed` and every one of `required` is there.
  void check_fields(const Json& message, std::string_view where, std::initializer_list<std::string_view> allowed,
                    std::initializer_list<std::string_view> required) const {
    for (const auto& [key, value] : message.items()) {
      if (std::find(allowed.begin(), allowed.end(), key) == allowed.end())
        fail(fmt::format("has an unknown field '{}' in {} (expected {})", key, where, fmt::join(allowed, ", ")));
    }
    for (std::string_view key : required) {
      if (!message.contains(key)) fail(fmt::format("has no '{}' in {}", key, where));
    }
  }

  std::string string_of(const Json& object, std::string_view key) const {
    const Json& value = object.at(key);
    if (!value.is_string()) fail(fmt::format("has a {} for '{}' where a string belongs", value.type_name(), key));
    return value.get<std::string>();
  }

  std::uint64_t id_of(const Json& message) const {
    const Json& value = message.at("id");
    if (!value.is_number_unsigned() && !(value.is_number_integer() && value.get<std::int64_t>() >= 0))
      fail(fmt::format("has the id {}, which is not an unsigned integer", value.dump()));
    return value.get<std::uint64_t>();
  }

  std::vector<std::string> strings_of(const Json& object, std::string_view key) const {
    const Json& value = object.at(key);
    if (!value.is_array())
      fail(fmt::format("has a {} for '{}' where a list of strings belongs", value.type_name(), key));
    std::vector<std::string> out;
    for (const Json& item : value) {
      if (!item.is_string()) fail(fmt::format("has a {} in '{}' where a string belongs", item.type_name(), key));
      out.push_back(item.get<std::string>());
    }
    return out;
  }

 private:
  std::string_view line_;
  std::string what_;
};

std::vector<std::string> names_of_results(const Case& c) {
  try {
    return result_names(c);
  } catch (const CaseError&) {
    // A case whose transforms do not fit its function cannot be asked for anything more precise.
    return c.outputs;
  }
}

void inline_tensor(TensorSpec& spec) {
  spec.npy_file.clear();
  spec.base64 = true;
}

// True when any object inside `json` has an "npy" key: requests carry every tensor inline.
bool refers_to_npy(const Json& json) {
  if (json.is_object()) {
    if (json.contains("npy")) return true;
    for (const auto& [key, value] : json.items())
      if (refers_to_npy(value)) return true;
  } else if (json.is_array()) {
    for (const Json& item : json)
      if (refers_to_npy(item)) return true;
  }
  return false;
}

TensorData output_of(const MessageReader& reader, const Json& json, const std::string& name, Device device) {
  const std::string where = fmt::format("output '{}'", name);
  if (!json.is_object())
    reader.fail(fmt::format("has a {} for {} where a tensor object belongs", json.type_name(), where));
  reader.check_fields(json, where, {"dtype", "shape", "base64"}, {"dtype", "shape", "base64"});
  TensorData data;
  const std::string dtype = reader.string_of(json, "dtype");
  const std::optional<DType> parsed = parse_dtype(dtype);
  if (!parsed || !is_case_dtype(*parsed))
    reader.fail(
        fmt::format("gives {} the unknown dtype '{}' (expected bool, int64, float32 or float64)", where, dtype));
  data.dtype = *parsed;
  const Json& shape = json.at("shape");
  if (!shape.is_array()) reader.fail(fmt::format("gives {} a shape that is not a list", where));
  for (const Json& size : shape) {
    if (!size.is_number_integer() || size.get<std::int64_t>() < 0)
      reader.fail(fmt::format("gives {} the shape {}, whose sizes must be integers >= 0", where, shape.dump()));
    data.shape.push_back(size.get<std::int64_t>());
  }
  const std::optional<std::int64_t> numel = bounded_numel(data.shape);
  if (!numel) reader.fail(fmt::format("gives {} the shape {}, which has too many elements", where, shape.dump()));
  const std::string text = reader.string_of(json, "base64");
  std::optional<std::vector<std::uint8_t>> bytes = base64_decode(text);
  if (!bytes) reader.fail(fmt::format("gives {} data that is not valid padded base64", where));
  // On meta a tensor has no values: only its dtype and shape come back.
  const std::size_t expected = device == Device::Meta ? 0 : static_cast<std::size_t>(*numel) * itemsize(data.dtype);
  if (bytes->size() != expected)
    reader.fail(fmt::format("gives {} {} bytes of data, but {} {} on {} needs {}", where, bytes->size(),
                            shape_to_string(data.shape), dtype_name(data.dtype), device_name(device), expected));
  data.bytes = std::move(*bytes);
  return data;
}

ProgramResult read_evaluate_reply(std::string_view line, std::uint64_t id, const Case& c) {
  const MessageReader reader(line, fmt::format("the reply to request {} (case '{}')", id, c.id));
  const Json reply = reader.parse();
  const std::string type = reader.type_of(reply);
  ProgramResult result;
  if (type == "error" && !reply.contains("kind")) {
    // A rejection: the backend could not read the request (docs/protocol.md, "rejections").
    reader.check_fields(reply, "a rejection", {"type", "id", "message"}, {"message"});
    reader.fail(fmt::format("rejects the request: {}", reader.string_of(reply, "message")));
  }
  if (!reply.contains("id")) reader.fail("has no 'id'");
  const std::uint64_t answered = reader.id_of(reply);
  if (answered != id) reader.fail(fmt::format("answers request {}, not {}", answered, id));
  if (type == "result") {
    reader.check_fields(reply, "a result", {"type", "id", "outputs"}, {"outputs"});
    const Json& outputs = reply.at("outputs");
    if (!outputs.is_object())
      reader.fail(fmt::format("has a {} for 'outputs' where an object belongs", outputs.type_name()));
    const std::vector<std::string> names = names_of_results(c);
    std::map<std::string, TensorData, std::less<>> received;
    for (const auto& [name, value] : outputs.items()) {
      if (std::find(names.begin(), names.end(), name) == names.end())
        reader.fail(fmt::format("has the output '{}', which the case does not ask for (it asks for [{}])", name,
                                fmt::join(names, ", ")));
      received[name] = output_of(reader, value, name, c.device);
    }
    for (const std::string& name : names) {
      auto found = received.find(name);
      if (found == received.end())
        reader.fail(fmt::format("has no output '{}' (the case asks for [{}])", name, fmt::join(names, ", ")));
      result.outputs.emplace_back(name, std::move(found->second));
    }
  } else if (type == "error") {
    reader.check_fields(reply, "an error", {"type", "id", "kind", "message"}, {"kind", "message"});
    const std::string kind = reader.string_of(reply, "kind");
    result.error = parse_error_kind(kind);
    if (!result.error) reader.fail(fmt::format("names the unknown error kind '{}'", kind));
    result.error_message = reader.string_of(reply, "message");
  } else if (type == "unsupported") {
    reader.check_fields(reply, "an unsupported reply", {"type", "id", "reason"}, {"reason"});
    result.unsupported = reader.string_of(reply, "reason");
  } else if (type == "failed") {
    reader.check_fields(reply, "a failed reply", {"type", "id", "reason"}, {"reason"});
    result.broken = reader.string_of(reply, "reason");
    if (result.broken.empty()) result.broken = "the backend reported a failure without a reason";
  } else {
    reader.fail(fmt::format("has the unknown type '{}' (expected result, error, unsupported or failed)", type));
  }
  return result;
}

}  // namespace

std::string quote_line(std::string_view line, std::size_t limit) {
  std::string out = "'";
  const std::size_t shown = std::min(line.size(), limit);
  for (std::size_t i = 0; i < shown; ++i) {
    const auto byte = static_cast<unsigned char>(line[i]);
    if (byte == '\n') {
      out += "\\n";
    } else if (byte == '\r') {
      out += "\\r";
    } else if (byte == '\t') {
      out += "\\t";
    } else if (byte < 0x20 || byte == 0x7f) {
      out += fmt::format("\\x{:02x}", byte);
    } else {
      out += static_cast<char>(byte);
    }
  }
  out += "'";
  if (shown < line.size()) out += fmt::format("... ({} bytes in all)", line.size());
  return out;
}

std::string to_line(const Json& message) {
  // dump() escapes control characters inside strings, so the line never holds a raw newline;
  // invalid UTF-8 is replaced rather than thrown on.
  return message.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string hello_request_line() {
  return to_line(Json{{"type", "hello"}, {"protocols", Json::array({std::string(kProtocolVersion)})}});
}

std::string bye_line() { return to_line(Json{{"type", "bye"}}); }

Capabilities parse_hello_reply(std::string_view line) {
  const MessageReader reader(line, "the hello reply");
  const Json reply = reader.parse();
  const std::string type = reader.type_of(reply);
  if (type == "error") {
    const std::string message =
        reply.contains("message") && reply["message"].is_string() ? reply["message"].get<std::string>() : "";
    reader.fail(fmt::format("refuses the handshake: {}", message.empty() ? "(no message)" : message));
  }
  if (type != "hello") reader.fail(fmt::format("has the type '{}' (expected hello)", type));
  reader.check_fields(reply, "the hello", {"type", "protocol", "name", "version", "capabilities"},
                      {"protocol", "name", "version", "capabilities"});
  const std::string protocol = reader.string_of(reply, "protocol");
  if (protocol != kProtocolVersion)
    reader.fail(fmt::format("speaks '{}', but the suite offered only {}", protocol, kProtocolVersion));
  Capabilities capabilities;
  capabilities.name = reader.string_of(reply, "name");
  if (capabilities.name.empty()) reader.fail("gives an empty name");
  capabilities.version = reader.string_of(reply, "version");
  const Json& stated = reply.at("capabilities");
  if (!stated.is_object()) reader.fail("has 'capabilities' that is not an object");
  reader.check_fields(stated, "capabilities", {"ops", "transforms", "dtypes", "devices", "features"},
                      {"ops", "transforms", "dtypes", "devices"});
  for (std::string& op : reader.strings_of(stated, "ops")) capabilities.ops.insert(std::move(op));
  for (std::string& t : reader.strings_of(stated, "transforms")) capabilities.transforms.insert(std::move(t));
  for (const std::string& name : reader.strings_of(stated, "dtypes")) {
    const std::optional<DType> dtype = parse_dtype(name);
    if (!dtype || !is_case_dtype(*dtype))
      reader.fail(fmt::format("lists the unknown dtype '{}' (expected bool, int64, float32, float64)", name));
    capabilities.dtypes.insert(*dtype);
  }
  for (const std::string& name : reader.strings_of(stated, "devices")) {
    if (!parse_device(name)) reader.fail(fmt::format("lists the unknown device '{}' (expected cpu, meta, cuda)", name));
    capabilities.devices.insert(name);
  }
  // Optional, so that a backend written before format 1.1 still shakes hands, stating no features.
  if (stated.contains("features")) {
    for (std::string& feature : reader.strings_of(stated, "features")) capabilities.features.insert(std::move(feature));
  }
  return capabilities;
}

Json evaluate_request(const Case& c, std::uint64_t id) {
  Case sent = c;
  for (CaseInput& in : sent.inputs) {
    if (auto* spec = std::get_if<TensorSpec>(&in.value)) inline_tensor(*spec);
  }
  for (Transform& transform : sent.transforms) {
    if (auto* vjp = std::get_if<VjpTransform>(&transform)) {
      for (NamedTensor& n : vjp->cotangents) inline_tensor(n.tensor);
    }
    if (auto* jvp = std::get_if<JvpTransform>(&transform)) {
      for (NamedTensor& n : jvp->tangents) inline_tensor(n.tensor);
    }
  }
  sent.expect = Expectation{};
  Json json = case_to_json(sent);
  json.erase("expect");
  return Json{{"type", "evaluate"}, {"id", id}, {"case", std::move(json)}};
}

std::string evaluate_request_line(const Case& c, std::uint64_t id) { return to_line(evaluate_request(c, id)); }

ProgramResult parse_evaluate_reply(std::string_view line, std::uint64_t id, const Case& c) {
  try {
    return read_evaluate_reply(line, id, c);
  } catch (const ProtocolError& e) {
    ProgramResult result;
    result.fault = Fault::Protocol;
    result.broken = e.what();
    return result;
  }
}

Request parse_request(std::string_view line) {
  const MessageReader reader(line, "the request");
  const Json message = reader.parse();
  const std::string type = reader.type_of(message);
  Request request;
  if (type == "hello") {
    request.type = RequestType::Hello;
    reader.check_fields(message, "a hello", {"type", "protocols"}, {"protocols"});
    const std::vector<std::string> offered = reader.strings_of(message, "protocols");
    if (std::find(offered.begin(), offered.end(), kProtocolVersion) == offered.end())
      reader.fail(
          fmt::format("offers [{}], but this backend speaks only {}", fmt::join(offered, ", "), kProtocolVersion));
    return request;
  }
  if (type == "bye") {
    request.type = RequestType::Bye;
    reader.check_fields(message, "a bye", {"type"}, {});
    return request;
  }
  if (type != "evaluate") reader.fail(fmt::format("has the unknown type '{}' (expected hello, evaluate or bye)", type));
  request.type = RequestType::Evaluate;
  reader.check_fields(message, "an evaluate request", {"type", "id", "case"}, {"id", "case"});
  request.id = reader.id_of(message);
  Json c = message.at("case");
  if (!c.is_object()) reader.fail("has a 'case' that is not an object", request.id);
  if (c.contains("expect")) reader.fail("carries the case's expectation, which is the suite's business", request.id);
  if (refers_to_npy(c)) reader.fail("refers to a .npy file; requests carry every tensor inline", request.id);
  // The shared case reader insists on an expectation; a placeholder error one needs no results.
  c["expect"] = Json{{"error", std::string(error_kind_name(ErrorKind::Internal))}};
  try {
    request.c = parse_case(c, fmt::format("request {}", request.id), ".");
  } catch (const CaseError& e) {
    reader.fail(fmt::format("has a malformed case: {}", e.what()), request.id);
  }
  return request;
}

Json hello_reply(const Capabilities& capabilities) {
  Json dtypes = Json::array();
  for (DType dtype : capabilities.dtypes) dtypes.push_back(std::string(dtype_name(dtype)));
  Json stated{{"ops", capabilities.ops},
              {"transforms", capabilities.transforms},
              {"dtypes", dtypes},
              {"devices", capabilities.devices}};
  if (!capabilities.features.empty()) stated["features"] = capabilities.features;
  return Json{{"type", "hello"},
              {"protocol", std::string(kProtocolVersion)},
              {"name", capabilities.name},
              {"version", capabilities.version},
              {"capabilities", stated}};
}

Json evaluate_reply(std::uint64_t id, const ProgramResult& result) {
  if (result.unsupported) return Json{{"type", "unsupported"}, {"id", id}, {"reason", *result.unsupported}};
  if (result.fault != Fault::None || !result.broken.empty())
    return Json{{"type", "failed"}, {"id", id}, {"reason", result.broken}};
  if (result.error)
    return Json{{"type", "error"},
                {"id", id},
                {"kind", std::string(error_kind_name(*result.error))},
                {"message", result.error_message}};
  Json outputs = Json::object();
  for (const auto& [name, data] : result.outputs) {
    outputs[name] = Json{
        {"dtype", std::string(dtype_name(data.dtype))}, {"shape", data.shape}, {"base64", base64_encode(data.bytes)}};
  }
  return Json{{"type", "result"}, {"id", id}, {"outputs", std::move(outputs)}};
}

Json rejection_reply(std::optional<std::uint64_t> id, std::string_view message) {
  Json reply{{"type", "error"}};
  if (id) reply["id"] = *id;
  reply["message"] = std::string(message);
  return reply;
}

}  // namespace funcspec::conformance
