#pragma once
// Building HTTP answers, and reading what the endpoints need from requests.
#include "response_sink.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace mcpread::server::http {

// A JSON body (a JSON-RPC message, already serialized).
Response json_response(unsigned status, std::string body, const Headers& headers = {});
// A JSON-RPC error with no id: how the transport refuses a request it will not hand on.
Response rpc_error_response(unsigned status, int code, std::string message,
                            const nlohmann::json& data = nullptr, const Headers& headers = {});
// The same, answering the request with JSON-RPC id `id` (left out when null: not known).
Response rpc_error_response_to(const nlohmann::json& id, unsigned status, int code, std::string message,
                               const nlohmann::json& data = nullptr, const Headers& headers = {});
// A status with no body (202 Accepted, 204, 405 …).
Response empty_response(unsigned status, const Headers& headers = {});

std::optional<std::string_view> header(const Request& request, std::string_view name);
// The path of the request target, without the query.
std::string_view path_of(const Request& request);
// A query parameter, percent-decoded.
std::optional<std::string> query_param(const Request& request, std::string_view name);
// Whether an Accept header allows `type` ("application/json"), wildcards included.
bool accepts(std::optional<std::string_view> accept, std::string_view type);
bool is_json_content(const Request& request);

}  // namespace mcpread::server::http
