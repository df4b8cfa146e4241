#pragma once
// Prometheus's text exposition format, written one family at a time: its HELP and TYPE lines,
// then its samples, so that /metrics (metrics.cpp) spells every family the same way.
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>

namespace mcpread::server::http::prometheus {

// "# HELP <name> <help>\n# TYPE <name> <type>\n"; `type` is "counter", "gauge" or "histogram".
inline void family(std::string& out, std::string_view name, std::string_view type, std::string_view help) {
  out.append("# HELP ").append(name).append(" ").append(help).append("\n");
  out.append("# TYPE ").append(name).append(" ").append(type).append("\n");
}

// `route="mcp",method="ping"`: label values escaped as the format asks (backslash, quote, newline).
inline std::string labels(std::initializer_list<std::pair<std::string_view, std::string_view>> pairs) {
  std::string out;
  for (const auto& [name, value] : pairs) {
    if (!out.empty()) out += ',';
    out.append(name).append("=\"");
    for (char c : value) {
      if (c == '\\' || c == '"') out += '\\';
      out += c == '\n' ? std::string_view("\\n") : std::string_view(&c, 1);
    }
    out += '"';
  }
  return out;
}

// "<name>{<labels>} <value>\n", or "<name> <value>\n" without labels.
inline void sample(std::string& out, std::string_view name, std::string_view labels, std::string_view value) {
  out.append(name);
  if (!labels.empty()) out.append("{").append(labels).append("}");
  out.append(" ").append(value).append("\n");
}

}  // namespace mcpread::server::http::prometheus
