#include "stateless_headers.hpp"

#include "mcpread/protocol/stateless.hpp"

#include "mcpread/readers/base64.hpp"

namespace mcpread::server::http {
namespace {

protocol::MessageError mismatch(const protocol::Message& m, std::string message) {
  return {m.id, protocol::error_code::header_mismatch, "Header mismatch: " + std::move(message)};
}

bool plain_header_text(std::string_view value) {
  for (unsigned char c : value)
    if ((c < 0x20 && c != '\t') || c > 0x7E) return false;
  return true;
}

}  // namespace

std::optional<std::string> decode_header_value(std::string_view value) {
  constexpr std::string_view open = "=?base64?";
  constexpr std::string_view close = "?=";
  if (value.size() < open.size() + close.size() || value.substr(0, open.size()) != open ||
      value.substr(value.size() - close.size()) != close)
    return std::string(value);
  const std::string_view encoded = value.substr(open.size(), value.size() - open.size() - close.size());
  // Strict here, where the project's decoder is lenient: the standard alphabet in groups of four,
  // at most two padding characters at the end.
  const std::size_t digits = encoded.find_first_not_of(
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/");
  const std::string_view rest = encoded.substr(std::min(digits, encoded.size()));
  if (rest.size() > 2 || rest.find_first_not_of('=') != std::string_view::npos || encoded.size() % 4 != 0)
    return std::nullopt;
  return readers::base64_decode(encoded);
}

std::optional<protocol::MessageError> check_stateless_headers(const protocol::Message& m,
                                                              const HeaderLookup& header) {
  // A body that declares no version has nothing for the header to match: the stateless check
  // refuses it as invalid params (-32602).
  const auto meta = m.params.is_object() ? m.params.find("_meta") : m.params.end();
  if (meta == m.params.end() || !meta->is_object()) return std::nullopt;
  const auto body_version = meta->find(protocol::meta_key::protocol_version);
  if (body_version == meta->end()) return std::nullopt;
  const std::string declared = body_version->is_string() ? body_version->get<std::string>() : body_version->dump();
  const auto version = header("MCP-Protocol-Version");
  if (!version) return mismatch(m, "the MCP-Protocol-Version header is missing");
  if (*version != declared)
    return mismatch(m, "MCP-Protocol-Version header value '" + std::string(*version) +
                           "' does not match body value '" + declared + "'");
  const auto method = header("Mcp-Method");
  if (!method) return mismatch(m, "the Mcp-Method header is missing");
  if (*method != m.method)
    return mismatch(m, "Mcp-Method header value '" + std::string(*method) + "' does not match body value '" +
                           m.method + "'");
  const char* name_field = m.method == "tools/call" || m.method == "prompts/get" ? "name"
                           : m.method == "resources/read"                       ? "uri"
                           // SEP-2663 §Streamable HTTP: Routing Headers.
                           : m.method == "tasks/get" || m.method == "tasks/update" || m.method == "tasks/cancel"
                               ? "taskId"
                               : nullptr;
  if (name_field == nullptr) return std::nullopt;
  const auto name = header("Mcp-Name");
  if (!name) return mismatch(m, std::string("the Mcp-Name header is missing (") + m.method + " needs it)");
  if (!plain_header_text(*name)) return mismatch(m, "the Mcp-Name header holds invalid characters");
  const auto decoded = decode_header_value(*name);
  if (!decoded) return mismatch(m, "the Mcp-Name header's base64 form cannot be decoded");
  const auto body = m.params.find(name_field);
  const std::string body_value = body != m.params.end() && body->is_string() ? body->get<std::string>() : "";
  if (*decoded != body_value)
    return mismatch(m, "Mcp-Name header value '" + *decoded + "' does not match body value '" + body_value + "'");
  return std::nullopt;
}

std::optional<protocol::MessageError> check_param_headers(const protocol::Message& m,
                                                          const std::vector<protocol::ToolDefinition>& tools,
                                                          const HeaderLookup& header) {
  if (m.method != "tools/call" || !m.params.is_object()) return std::nullopt;
  const auto name = m.params.find("name");
  if (name == m.params.end() || !name->is_string()) return std::nullopt;
  const protocol::ToolDefinition* tool = nullptr;
  for (const auto& t : tools)
    if (t.name == name->get_ref<const std::string&>()) tool = &t;
  if (tool == nullptr) return std::nullopt;
  const auto properties = tool->input_schema.find("properties");
  if (properties == tool->input_schema.end() || !properties->is_object()) return std::nullopt;
  const auto arguments_it = m.params.find("arguments");
  const protocol::json no_arguments = protocol::json::object();
  const protocol::json& arguments =
      arguments_it != m.params.end() && arguments_it->is_object() ? *arguments_it : no_arguments;
  for (const auto& [key, property] : properties->items()) {
    const auto mirrored = property.is_object() ? property.find("x-mcp-header") : property.end();
    if (!property.is_object() || mirrored == property.end() || !mirrored->is_string()) continue;
    const std::string header_name = "Mcp-Param-" + mirrored->get<std::string>();
    const auto value = arguments.find(key);
    const bool in_body = value != arguments.end() && !value->is_null();
    const auto sent = header(header_name);
    if (!in_body) {
      if (sent) return mismatch(m, "the " + header_name + " header is set but arguments." + key + " is not");
      continue;
    }
    if (!sent) return mismatch(m, "the " + header_name + " header is missing (arguments." + key + " is set)");
    if (!plain_header_text(*sent)) return mismatch(m, "the " + header_name + " header holds invalid characters");
    const auto decoded = decode_header_value(*sent);
    if (!decoded) return mismatch(m, "the " + header_name + " header's base64 form cannot be decoded");
    const std::string expected = value->is_string()    ? value->get<std::string>()
                                 : value->is_boolean() ? (value->get<bool>() ? "true" : "false")
                                                       : value->dump();
    if (*decoded != expected)
      return mismatch(m, header_name + " header value '" + *decoded + "' does not match body value '" + expected + "'");
  }
  return std::nullopt;
}

}  // namespace mcpread::server::http
