#pragma once
// The operating system's side of the roots check. access.cpp holds what every system shares (the
// roots, their narrowing, the requests refused before any lookup, the messages); each system's
// file resolves, compares and opens: access_posix.cpp (realpath, openat2 or O_NOFOLLOW) and
// access_windows.cpp (CreateFileW, then GetFinalPathNameByHandleW on the handle that is read).
#include "mcpread/readers/access.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace mcpread::readers::access_detail {

// `dir` ("~" expanded) as its real path, when it is a directory; nullopt with the reason
// (the system's words) in *why.
std::optional<std::filesystem::path> resolve_directory(std::string_view dir, std::string* why);
// True when `p` is `dir` or lies below it, by whole components ("/a/b" holds "/a/b/c", not
// "/a/bc"), names compared as the system compares them. Both are resolved paths.
bool within(const std::filesystem::path& dir, const std::filesystem::path& p);
// "~" and "~/x" as the user's home folder and a path in it (the profile folder on Windows).
std::string expand_home(std::string_view path);
// `requested` (not empty, without NUL; the roots are not empty) resolved, checked and opened.
AccessResult open_checked(const Roots& roots, std::string_view requested);

// Messages both sides give.
AccessError outside_roots(const Roots& roots, const std::string& requested);
AccessError not_found(const std::string& requested, const std::string& lead,
                      const std::filesystem::path& dir, const std::string& name);
AccessError permission_denied(const std::string& requested, const std::string& why);

}  // namespace mcpread::readers::access_detail
