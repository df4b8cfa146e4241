#include "mcpread/protocol/jsonrpc.hpp"

#include "mcpread/common/json_depth.hpp"
#include "mcpread/common/prefault.hpp"
#include "mcpread/common/spare_buffers.hpp"
#include "mcpread/protocol/json_writer.hpp"

namespace mcpread::protocol {
namespace {

bool valid_id(const json& id) {
  // MCP: a string or an integer; never null. JSON-RPC discourages fractional numbers, and MCP's
  // schema types ids as integers.
  return id.is_string() || id.is_number_integer();
}

MessageError invalid(json id, std::string message) {
  return MessageError{std::move(id), error_code::invalid_request, std::move(message)};
}

// Arrays and objects nested deeper than this are refused before parsing: copying, comparing and
// serializing a json value recurse once per level, so a line of a few megabytes of '[' would
// overflow the stack. No MCP message comes anywhere near this depth.
constexpr std::size_t max_nesting = 128;

}  // namespace

std::variant<json, MessageError> parse_json(std::string_view text) {
  if (json_nesting_depth(text, max_nesting) > max_nesting) {
    return invalid(nullptr, "Invalid Request: the message nests arrays and objects more than " +
                                std::to_string(max_nesting) + " levels deep");
  }
  json value = json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
  if (value.is_discarded()) {
    return MessageError{nullptr, error_code::parse_error,
                        "Parse error: the message is not valid JSON (UTF-8 text expected)"};
  }
  return value;
}

std::variant<Message, MessageError> to_message(const json& value) {
  if (!value.is_object()) return invalid(nullptr, "Invalid Request: a message must be a JSON object");
  // Report errors against the id when it is usable, so the client can match them.
  json id = nullptr;
  const auto id_it = value.find("id");
  const bool has_id = id_it != value.end();
  if (has_id) {
    if (!valid_id(*id_it))
      return invalid(nullptr, "Invalid Request: \"id\" must be a string or an integer");
    id = *id_it;
  }
  const auto version = value.find("jsonrpc");
  if (version == value.end() || *version != "2.0")
    return invalid(id, "Invalid Request: \"jsonrpc\" must be \"2.0\"");

  Message m;
  m.id = id;
  const auto method = value.find("method");
  if (method != value.end()) {
    if (!method->is_string()) return invalid(id, "Invalid Request: \"method\" must be a string");
    m.method = method->get<std::string>();
    m.kind = has_id ? MessageKind::request : MessageKind::notification;
    const auto params = value.find("params");
    if (params != value.end() && !params->is_null()) {
      if (!params->is_object()) {
        return MessageError{id, error_code::invalid_params,
                            "Invalid params: \"params\" must be an object"};
      }
      m.params = *params;
    }
    return m;
  }
  const auto result = value.find("result");
  const auto error = value.find("error");
  if (has_id && (result != value.end()) != (error != value.end())) {
    m.kind = MessageKind::response;
    if (result != value.end()) m.result = *result;
    if (error != value.end()) m.error = *error;
    return m;
  }
  return invalid(id, "Invalid Request: a message needs a \"method\", or an \"id\" with a \"result\" "
                     "or an \"error\"");
}

json make_result(const json& id, json result) {
  return json{{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}};
}

json make_error(const json& id, int code, std::string_view message) {
  return json{{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", code}, {"message", message}}}};
}

json make_error(const MessageError& e) {
  json j = make_error(e.id, e.code, e.message);
  if (!e.data.is_null()) j["error"]["data"] = e.data;
  return j;
}

json make_request(const json& id, std::string_view method, json params) {
  json m{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}};
  if (!params.is_null()) m["params"] = std::move(params);
  return m;
}

json make_notification(std::string_view method, json params) {
  json m{{"jsonrpc", "2.0"}, {"method", method}};
  if (!params.is_null()) m["params"] = std::move(params);
  return m;
}

std::string serialize(const json& message) {
  // Reserved once, with room for a few escapes and the transport's framing: a message of
  // megabytes (an image's base64, a long text) is then written in place, never moved. A large
  // one reuses the last large message's buffer when a transport gave it back.
  const std::size_t hint = wire_size_hint(message);
  bool reused = false;
  std::string out = common::spare::messages().take(hint + hint / 16 + 64, &reused);
  if (!reused) common::prefault_for_writing(out.data(), out.capacity());
  append_json(message, out);
  return out;
}

void recycle_buffers(json& message) {
  switch (message.type()) {
    case json::value_t::binary:
      common::spare::bytes().give_back(std::move(message.get_binary()));
      return;
    case json::value_t::object:
    case json::value_t::array:
      for (auto& item : message) recycle_buffers(item);
      return;
    default:
      return;
  }
}

std::string id_key(const json& id) { return id.dump(); }

}  // namespace mcpread::protocol
