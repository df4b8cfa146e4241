#pragma once
// Server-Sent Events framing.
#include <string>
#include <string_view>
#include <utility>

namespace mcpread::server::http {

// "event: <name>\ndata: <line>\n…\n\n"; a data field per line of `data`, no event line when
// `name` is empty (the default event type, "message"). A serialized JSON-RPC message is one line
// (newlines in its strings are escaped) and may be megabytes (an image's base64): it is framed in
// place, in the room its serializer reserved, rather than copied.
inline std::string sse_event(std::string_view name, std::string data) {
  if (data.find('\n') == std::string::npos) {
    std::string head;
    if (!name.empty()) head.append("event: ").append(name).append("\n");
    head.append("data: ");
    data.insert(0, head);
    data.append("\n\n");
    return data;
  }
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
