#pragma once
// JSON-RPC 2.0 messages: validation of what arrives and construction of what leaves.
#include <nlohmann/json.hpp>

#include <string>
#include <string_view>
#include <variant>

namespace mcpread::protocol {

using json = nlohmann::json;

namespace error_code {
inline constexpr int parse_error = -32700;
inline constexpr int invalid_request = -32600;
inline constexpr int method_not_found = -32601;
inline constexpr int invalid_params = -32602;
inline constexpr int internal_error = -32603;
inline constexpr int resource_not_found = -32002;  // up to 2025-11-25; -32602 from 2026-07-28
// Defined by protocol 2026-07-28 for its stateless requests.
inline constexpr int header_mismatch = -32020;
inline constexpr int missing_client_capability = -32021;
inline constexpr int unsupported_protocol_version = -32022;
}  // namespace error_code

enum class MessageKind { request, notification, response };

// A valid incoming message. For responses (answers to our own requests) `result` or `error` is set.
struct Message {
  MessageKind kind = MessageKind::request;
  json id;  // string or integer; null for notifications
  std::string method;
  json params = json::object();
  json result;
  json error;
};

// Why a message was refused, with the id to answer (null when it could not be read).
struct MessageError {
  MessageError() = default;
  MessageError(json i, int c, std::string m, json d = nullptr)
      : id(std::move(i)), code(c), message(std::move(m)), data(std::move(d)) {}
  json id;
  int code = error_code::invalid_request;
  std::string message;
  json data;  // the error's "data" member when not null
};

// Parses one serialized message (never throws). Arrays are not handled here: see is_batch().
std::variant<json, MessageError> parse_json(std::string_view text);
// Validates one message object (an element of a batch, or a whole message).
std::variant<Message, MessageError> to_message(const json& value);

json make_result(const json& id, json result);
json make_error(const json& id, int code, std::string_view message);
json make_error(const MessageError& e);
json make_request(const json& id, std::string_view method, json params);
json make_notification(std::string_view method, json params);

// Serializes for the wire: compact, never throws, invalid UTF-8 replaced by U+FFFD.
std::string serialize(const json& message);
// Hands the large binary values of a message already serialized (an image's bytes) back for the
// next large read (common/spare_buffers.hpp); the message keeps empty ones.
void recycle_buffers(json& message);

// A stable key for an id (so that 1 and "1" differ).
std::string id_key(const json& id);

}  // namespace mcpread::protocol
