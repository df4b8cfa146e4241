// file:// URIs to and from paths (resources/list names files by them, resources/read takes them).
#include "mcpread/readers/resources.hpp"

#include "mcpread/common/percent.hpp"

namespace mcpread::readers {

std::string path_from_file_uri(std::string_view uri) {
  constexpr std::string_view scheme = "file://";
  if (uri.size() <= scheme.size() || uri.substr(0, scheme.size()) != scheme) return {};
  std::string_view rest = uri.substr(scheme.size());
  // file://localhost/x and file:///x name the same path; other hosts are not local.
  if (rest.substr(0, 9) == "localhost") rest.remove_prefix(9);
  if (rest.empty() || rest.front() != '/') return {};
  rest = rest.substr(0, rest.find_first_of("?#"));  // a query or fragment names no file
  std::optional<std::string> path = common::percent_decode(rest, common::PercentMode::strict);
  if (!path || path->find('\0') != std::string::npos) return {};
#if defined(_WIN32)
  // file:///C:/a/b is C:\a\b. A path without its drive (file:///etc/x) names no file here:
  // Windows would take it on whatever drive is current.
  if (path->size() < 4 || (*path)[2] != ':' || (*path)[3] != '/') return {};
  path->erase(0, 1);
  for (char& c : *path)
    if (c == '/') c = '\\';
#endif
  return std::move(*path);
}

std::string file_uri(std::string_view path) {
  static constexpr char hex[] = "0123456789ABCDEF";
  std::string uri = "file://";
  uri.reserve(uri.size() + path.size());
#if defined(_WIN32)
  // C:\a\b is file:///C:/a/b (RFC 8089): the drive's colon kept, backslashes as slashes.
  if (path.size() >= 2 && path[1] == ':') {
    uri += '/';
    uri += path.substr(0, 2);
    path.remove_prefix(2);
  }
#endif
  for (const char ch : path) {
    const auto c = static_cast<unsigned char>(ch);
#if defined(_WIN32)
    if (ch == '\\') {
      uri += '/';
      continue;
    }
#endif
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
