#pragma once
// Windows path rules for the roots check (readers/src/access.cpp's Windows side): parsing an
// absolute path into its volume and components, the names Windows would not open as written, and
// containment compared the way NTFS compares names (case-insensitively). The rules are plain text
// functions, so they are tested on Linux too (tests/unit/readers/test_windows_paths.cpp); the
// comparison uses the system's ordinal case folding on Windows and ASCII folding elsewhere.
//
// Why refuse rather than repair: Win32 rewrites some names before they reach the file system
// (trailing dots and spaces dropped, CON or NUL.txt opening a device, "a.txt:s" naming a stream
// of a.txt), so a name that passed a check as written could open something else.
#include <algorithm>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#if defined(_WIN32)
#include "mcpread/common/windows_text.hpp"
#endif

namespace mcpread::platform::windows_paths {

// An absolute path: "C:" (drive letter upper-cased) or "\\server\share", and the components
// below it, with "." and ".." already applied.
struct Parsed {
  std::string volume;
  std::vector<std::string> parts;
};

inline bool is_separator(char c) { return c == '\\' || c == '/'; }

inline char ascii_upper(char c) { return c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c; }

// Names compared as NTFS compares them: ordinal, ignoring case (Windows' own upper-case table on
// Windows; ASCII letters only elsewhere, where these rules are only tested).
inline bool same_name(std::string_view a, std::string_view b) {
#if defined(_WIN32)
  const std::wstring wa = windows::widen(a), wb = windows::widen(b);
  return ::CompareStringOrdinal(wa.data(), static_cast<int>(wa.size()), wb.data(),
                                static_cast<int>(wb.size()), TRUE) == CSTR_EQUAL;
#else
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (ascii_upper(a[i]) != ascii_upper(b[i])) return false;
  return true;
#endif
}

// Why Windows would not open `name` (one component) as written; "" when it would.
inline std::string component_problem(std::string_view name) {
  if (name.empty() || name == "." || name == "..") return {};
  for (const char c : name) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || c == '<' || c == '>' || c == '"' || c == '|' || c == '?' || c == '*')
      return "\"" + std::string(name) + "\" has a character Windows does not allow in names";
    if (c == ':')
      return "\"" + std::string(name) +
             "\" names an alternate data stream (name:stream), which is not read";
  }
  if (name.back() == '.' || name.back() == ' ')
    return "\"" + std::string(name) +
           "\" ends in a dot or a space, which Windows drops, so it would open another name";
  // Device names stay devices with any extension and trailing spaces: NUL.txt, "CON .log".
  std::string_view base = name.substr(0, name.find('.'));
  while (!base.empty() && base.back() == ' ') base.remove_suffix(1);
  std::string upper;
  for (const char c : base) upper += ascii_upper(c);
  const bool numbered = upper.size() == 4 && (upper.starts_with("COM") || upper.starts_with("LPT")) &&
                        upper[3] >= '0' && upper[3] <= '9';
  // COM¹ COM² COM³ (and LPT): superscript digits count as device numbers too.
  const bool superscript = upper.size() == 5 && (upper.starts_with("COM") || upper.starts_with("LPT")) &&
                           upper[3] == '\xC2' &&
                           (upper[4] == '\xB9' || upper[4] == '\xB2' || upper[4] == '\xB3');
  if (upper == "CON" || upper == "PRN" || upper == "AUX" || upper == "NUL" || upper == "CONIN$" ||
      upper == "CONOUT$" || numbered || superscript)
    return "\"" + std::string(name) + "\" is a reserved device name on Windows, not a file";
  return {};
}

// True when `name` has the shape of an 8.3 short name ("PROGRA~1", "LONGNA~2.TXT"): an alias of a
// long name that the roots check must not compare as written. The check compares the path
// Windows reports after opening (GetFinalPathNameByHandleW), which has the long names.
inline bool looks_short(std::string_view name) {
  const auto tilde = name.find('~');
  if (tilde == std::string_view::npos || tilde == 0 || tilde > 6) return false;
  const auto dot = name.find('.', tilde);
  const std::string_view digits = name.substr(tilde + 1, dot == std::string_view::npos ? dot : dot - tilde - 1);
  if (digits.empty() || digits.size() > 6) return false;
  for (const char c : digits)
    if (c < '0' || c > '9') return false;
  return dot == std::string_view::npos || name.size() - dot - 1 <= 3;
}

// Parses an absolute path: "C:\a\b", "C:/a/b", "\\server\share\a", "\\?\C:\a", "\\?\UNC\server\share\a".
// nullopt, with the reason in *why, for anything else: relative ("a\b"), relative to a drive's
// current directory ("C:a"), relative to the current drive ("\a"), device paths ("\\.\COM1",
// "\\?\Volume{...}", "\\?\GLOBALROOT\..."), and "." or ".." in a \\?\ path, which Windows passes
// to the file system as written. ".." never climbs above the volume (as Windows resolves it).
inline std::optional<Parsed> parse_absolute(std::string_view path, std::string* why) {
  auto fail = [&](const std::string& reason) -> std::optional<Parsed> {
    if (why != nullptr) *why = reason;
    return std::nullopt;
  };
  Parsed out;
  std::string_view rest;
  bool verbatim = false;  // \\?\: no normalisation by Windows
  auto starts = [&](std::string_view p) {
    if (path.size() < p.size()) return false;
    for (std::size_t i = 0; i < p.size(); ++i) {
      const char a = path[i], b = p[i];
      if (b == '\\' ? !is_separator(a) : ascii_upper(a) != ascii_upper(b)) return false;
    }
    return true;
  };
  bool unc = false;
  if (starts("\\\\?\\") || starts("\\\\.\\")) {
    const bool device = path[2] == '.';
    path.remove_prefix(4);
    verbatim = true;
    if (!device && starts("UNC\\")) {
      path.remove_prefix(4);
      unc = true;
    } else if (device || path.size() < 2 || path[1] != ':') {
      return fail("\"" + std::string(path) + "\" is a device or volume path, not a file path");
    }
  } else if (path.size() >= 2 && is_separator(path[0]) && is_separator(path[1])) {
    path.remove_prefix(2);
    unc = true;
  }
  if (unc) {
    const auto server_end = std::find_if(path.begin(), path.end(), is_separator);
    const std::string_view server(path.data(), static_cast<std::size_t>(server_end - path.begin()));
    std::string_view after = path.substr(server.size());
    if (!after.empty()) after.remove_prefix(1);
    const auto share_end = std::find_if(after.begin(), after.end(), is_separator);
    const std::string_view share(after.data(), static_cast<std::size_t>(share_end - after.begin()));
    if (server.empty() || share.empty() || server == "." || server == "?")
      return fail("a UNC path needs a server and a share: \\\\server\\share\\...");
    out.volume = "\\\\" + std::string(server) + "\\" + std::string(share);
    rest = after.substr(share.size());
  } else if (path.size() >= 2 && path[1] == ':' && ascii_upper(path[0]) >= 'A' &&
             ascii_upper(path[0]) <= 'Z') {
    if (path.size() > 2 && !is_separator(path[2]))
      return fail("a drive-relative path (C:name) depends on that drive's current folder");
    out.volume = std::string(1, ascii_upper(path[0])) + ":";
    rest = path.substr(2);
  } else if (!path.empty() && is_separator(path[0])) {
    return fail("a path from the root of the current drive (\\name) needs its drive letter");
  } else {
    return fail("\"" + std::string(path) + "\" is not an absolute path");
  }
  std::size_t at = 0;
  while (at <= rest.size()) {
    std::size_t end = at;
    while (end < rest.size() && !is_separator(rest[end])) ++end;
    const std::string_view part = rest.substr(at, end - at);
    if ((part == "." || part == "..") && verbatim)
      return fail("a \\\\?\\ path is used as written, so it may not contain . or ..");
    if (part == "..") {
      if (!out.parts.empty()) out.parts.pop_back();
    } else if (!part.empty() && part != ".") {
      out.parts.emplace_back(part);
    }
    at = end + 1;
  }
  return out;
}

// The first component of `p` that Windows would not open as written, as its reason; "" when none.
inline std::string path_problem(const Parsed& p) {
  for (const std::string& part : p.parts)
    if (std::string why = component_problem(part); !why.empty()) return why;
  return {};
}

// True when `path` is `root` or lies below it: same volume and root's components a prefix, names
// compared as NTFS does. "C:\a" holds "c:\A\b", not "C:\ab".
inline bool within(const Parsed& root, const Parsed& path) {
  if (!same_name(root.volume, path.volume) || path.parts.size() < root.parts.size()) return false;
  for (std::size_t i = 0; i < root.parts.size(); ++i)
    if (!same_name(root.parts[i], path.parts[i])) return false;
  return true;
}

// "C:\a\b" or "\\server\share\a": the path as messages show it.
inline std::string to_string(const Parsed& p) {
  std::string s = p.volume;
  if (p.parts.empty()) return s + "\\";
  for (const std::string& part : p.parts) s += "\\" + part;
  return s;
}

#if defined(_WIN32)
// The path Windows reports for the file or folder `path` names once opened, with symbolic links,
// junctions and other reparse points followed and 8.3 short names made long: the realpath() of
// the roots check. nullopt, with the reason, when it cannot be opened or reported.
inline std::optional<Parsed> final_path(const std::string& path, std::string* why) {
  const std::wstring wide = windows::widen(path);
  // FILE_FLAG_BACKUP_SEMANTICS opens folders too; sharing everything never blocks another reader.
  const HANDLE h = ::CreateFileW(wide.c_str(), FILE_READ_ATTRIBUTES,
                                 FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, nullptr,
                                 OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS, nullptr);
  if (h == INVALID_HANDLE_VALUE) {
    if (why != nullptr) *why = "cannot be opened (Windows error " + std::to_string(::GetLastError()) + ")";
    return std::nullopt;
  }
  std::wstring buf(MAX_PATH, L'\0');
  DWORD n = ::GetFinalPathNameByHandleW(h, buf.data(), static_cast<DWORD>(buf.size()), VOLUME_NAME_DOS);
  if (n >= buf.size()) {  // too small: n is the size needed
    buf.resize(n + 1);
    n = ::GetFinalPathNameByHandleW(h, buf.data(), static_cast<DWORD>(buf.size()), VOLUME_NAME_DOS);
  }
  const DWORD err = ::GetLastError();
  ::CloseHandle(h);
  if (n == 0 || n >= buf.size()) {
    if (why != nullptr) *why = "has no final path (Windows error " + std::to_string(err) + ")";
    return std::nullopt;
  }
  buf.resize(n);
  return parse_absolute(windows::narrow(buf), why);  // "\\?\C:\..." or "\\?\UNC\..."
}

// The roots check as readers/src/access.cpp's Windows side will make it: `requested` parsed and
// its names checked; refused without being opened when, with . and .. applied as Windows applies
// them, it is outside every root; then opened for its final path (links, junctions and short
// names resolved), which must lie in a root too. `roots` are final paths themselves. The final
// path, or nullopt with the refusal in *why.
inline std::optional<Parsed> check_in_roots(const std::vector<Parsed>& roots,
                                            const std::string& requested, std::string* why) {
  const auto parsed = parse_absolute(requested, why);
  if (!parsed) return std::nullopt;
  if (std::string problem = path_problem(*parsed); !problem.empty()) {
    *why = problem;
    return std::nullopt;
  }
  auto in_a_root = [&](const Parsed& p) {
    return std::any_of(roots.begin(), roots.end(), [&](const Parsed& r) { return within(r, p); });
  };
  if (!in_a_root(*parsed)) {
    *why = to_string(*parsed) + " is outside the allowed roots";
    return std::nullopt;
  }
  std::string open_why;
  auto resolved = final_path(to_string(*parsed), &open_why);
  if (!resolved) {
    *why = to_string(*parsed) + " " + open_why;
    return std::nullopt;
  }
  if (!in_a_root(*resolved)) {
    *why = to_string(*parsed) + " leads to " + to_string(*resolved) + ", outside the allowed roots";
    return std::nullopt;
  }
  return resolved;
}
#endif

}  // namespace mcpread::platform::windows_paths
