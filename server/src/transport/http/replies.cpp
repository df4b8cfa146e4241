#include "replies.hpp"

#include "mcpread/common/ascii.hpp"
#include "mcpread/common/percent.hpp"
#include "mcpread/protocol/jsonrpc.hpp"

#include <algorithm>
#include <cctype>

namespace mcpread::server::http {

namespace bhttp = boost::beast::http;

using common::ascii_lower;

Response json_response(unsigned status, std::string body, const Headers& headers) {
  Response r{static_cast<bhttp::status>(status), 11};
  r.set(bhttp::field::content_type, "application/json");
  for (const auto& [name, value] : headers) r.set(name, value);
  r.body() = std::move(body);
  return r;
}

Response rpc_error_response(unsigned status, int code, std::string message, const nlohmann::json& data,
                            const Headers& headers) {
  return rpc_error_response_to(nullptr, status, code, std::move(message), data, headers);
}

Response rpc_error_response_to(const nlohmann::json& id, unsigned status, int code, std::string message,
                               const nlohmann::json& data, const Headers& headers) {
  nlohmann::json error{{"code", code}, {"message", std::move(message)}};
  if (!data.is_null()) error["data"] = data;
  nlohmann::json body{{"jsonrpc", "2.0"}};
  if (!id.is_null()) body["id"] = id;
  body["error"] = std::move(error);
  return json_response(status, protocol::serialize(body), headers);
}

Response empty_response(unsigned status, const Headers& headers) {
  Response r{static_cast<bhttp::status>(status), 11};
  for (const auto& [name, value] : headers) r.set(name, value);
  return r;
}

std::optional<std::string_view> header(const Request& request, std::string_view name) {
  const auto it = request.find(boost::beast::string_view(name.data(), name.size()));
  if (it == request.end()) return std::nullopt;
  return std::string_view(it->value().data(), it->value().size());
}

std::string_view path_of(const Request& request) {
  std::string_view target(request.target().data(), request.target().size());
  return target.substr(0, target.find('?'));
}

std::optional<std::string> query_param(const Request& request, std::string_view name) {
  std::string_view target(request.target().data(), request.target().size());
  const auto q = target.find('?');
  if (q == std::string_view::npos) return std::nullopt;
  std::string_view query = target.substr(q + 1);
  while (!query.empty()) {
    const auto amp = query.find('&');
    std::string_view pair = query.substr(0, amp);
    const auto eq = pair.find('=');
    if (pair.substr(0, eq) == name) {
      std::string_view raw = eq == std::string_view::npos ? std::string_view() : pair.substr(eq + 1);
      return common::percent_decode(raw, common::PercentMode::query);
    }
    query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
  }
  return std::nullopt;
}

bool accepts(std::optional<std::string_view> accept, std::string_view type) {
  if (!accept) return false;
  const std::string a = ascii_lower(*accept);
  const std::string major = std::string(type.substr(0, type.find('/'))) + "/*";
  std::string_view rest = a;
  while (!rest.empty()) {
    const auto comma = rest.find(',');
    std::string_view item = rest.substr(0, comma);
    item = item.substr(0, item.find(';'));
    while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
    while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
    if (item == type || item == "*/*" || item == major) return true;
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
  }
  return false;
}

bool is_json_content(const Request& request) {
  const auto type = header(request, "Content-Type");
  if (!type) return false;
  std::string t = ascii_lower(type->substr(0, type->find(';')));
  while (!t.empty() && t.back() == ' ') t.pop_back();
  return t == "application/json";
}

}  // namespace mcpread::server::http
