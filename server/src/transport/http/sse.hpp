#pragma once
// Server-Sent Events framing.
#include <string>
#include <string_view>

namespace mcpread::server::http {

// "event: <name>\ndata: <line>\n…\n\n"; a data field per line of `data`, no event line when
// `name` is empty (the default event type, "message").
inline std::string sse_event(std::string_view name, std::string_view data) {
  std::string out;
  out.reserve(data.size() + name.size() + 16);
  if (!name.empty()) out.append("event: ").append(name).append("\n");
  std::size_t start = 0;
  for (;;) {
    const std::size_t end = data.find('\n', start);
    out.append("data: ").append(data.substr(start, end == std::string_view::npos ? end : end - start)).append("\n");
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  out.append("\n");
  return out;
}

// A comment line: keeps idle streams open through proxies, and finds peers that are gone.
inline std::string sse_keepalive() { return ": keep-alive\n\n"; }

}  // namespace mcpread::server::http
