// The server's own roots/list requests to the client and the client's answers to them.
#include "mcpread/protocol/session.hpp"

namespace mcpread::protocol {

void Session::request_roots() {
  json id;
  {
    std::lock_guard lock(mutex_);
    id = "mcp-read-roots-" + std::to_string(next_outgoing_id_++);
    outgoing_[id_key(id)] = Outgoing{"roots/list", nullptr, nullptr};
  }
  handler_.roots_requested();
  outbound_(serialize(make_request(id, "roots/list", nullptr)));
}

void Session::answer_roots(const Message& m) {
  if (!m.error.is_null()) {
    std::string why = "the client answered roots/list with an error";
    if (m.error.is_object() && m.error.contains("message") && m.error["message"].is_string())
      why += ": " + m.error["message"].get<std::string>();
    handler_.roots_failed(why);
    return;
  }
  const auto roots = m.result.is_object() ? m.result.find("roots") : m.result.end();
  if (!m.result.is_object() || roots == m.result.end() || !roots->is_array()) {
    handler_.roots_failed("the roots/list result has no \"roots\" array");
    return;
  }
  std::vector<std::string> uris;
  for (const auto& root : *roots) {
    if (root.is_object() && root.contains("uri") && root["uri"].is_string())
      uris.push_back(root["uri"].get<std::string>());
  }
  handler_.roots_received(uris);
}

}  // namespace mcpread::protocol
