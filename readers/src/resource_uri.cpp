// file:// URIs to and from paths (resources/list names files by them, resources/read takes them).
#include "mcpread/readers/resources.hpp"

namespace mcpread::readers {

namespace {
int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

std::string path_from_file_uri(std::string_view uri) {
  constexpr std::string_view scheme = "file://";
  if (uri.size() <= scheme.size() || uri.substr(0, scheme.size()) != scheme) return {};
  std::string_view rest = uri.substr(scheme.size());
  // file://localhost/x and file:///x name the same path; other hosts are not local.
  if (rest.substr(0, 9) == "localhost") rest.remove_prefix(9);
  if (rest.empty() || rest.front() != '/') return {};
  std::string path;
  for (std::size_t i = 0; i < rest.size(); ++i) {
    const char c = rest[i];
    if (c == '?' || c == '#') break;
    if (c != '%') {
      path.push_back(c);
      continue;
    }
    const int hi = i + 2 < rest.size() ? hex_value(rest[i + 1]) : -1;
    const int lo = hi >= 0 ? hex_value(rest[i + 2]) : -1;
    if (lo < 0) return {};
    path.push_back(static_cast<char>(hi * 16 + lo));
    i += 2;
  }
  if (path.find('\0') != std::string::npos) return {};
  return path;
}

std::string file_uri(std::string_view path) {
  static constexpr char hex[] = "0123456789ABCDEF";
  std::string uri = "file://";
  uri.reserve(uri.size() + path.size());
  for (const char ch : path) {
    const auto c = static_cast<unsigned char>(ch);
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '/' ||
        c == '-' || c == '.' || c == '_' || c == '~') {
      uri += ch;
    } else {
      uri += '%';
      uri += hex[c >> 4];
      uri += hex[c & 15];
    }
  }
  return uri;
}

}  // namespace mcpread::readers
