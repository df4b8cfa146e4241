#pragma once
// Protocol 2026-07-28 mirrors parts of each request's body into HTTP headers (so intermediaries
// can route without parsing it): MCP-Protocol-Version, Mcp-Method, and Mcp-Name for tools/call,
// resources/read and prompts/get. A server must refuse a request whose headers disagree with its
// body (-32020), as a load balancer and the server would otherwise act on different requests.
#include "mcpread/protocol/jsonrpc.hpp"
#include "mcpread/protocol/tool_catalog.hpp"

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mcpread::server::http {

using HeaderLookup = std::function<std::optional<std::string_view>(std::string_view name)>;

// Decodes a header value that may use the "=?base64?…?=" form; nullopt when that form is broken.
std::optional<std::string> decode_header_value(std::string_view value);

// The -32020 error for a stateless request whose headers do not match its body, or nullopt.
std::optional<protocol::MessageError> check_stateless_headers(const protocol::Message& m,
                                                              const HeaderLookup& header);

// The -32020 error for a tools/call whose tool mirrors arguments into headers (a property with
// "x-mcp-header": "Name" goes in Mcp-Param-Name, plain or "=?base64?…?=") when a header is
// missing, undecodable or unlike the argument, or set for an argument the body lacks; nullopt when
// they agree or the tool mirrors nothing.
std::optional<protocol::MessageError> check_param_headers(const protocol::Message& m,
                                                          const std::vector<protocol::ToolDefinition>& tools,
                                                          const HeaderLookup& header);

}  // namespace mcpread::server::http
