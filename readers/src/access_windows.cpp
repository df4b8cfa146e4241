// The roots check on Windows (access_platform.hpp). A request is parsed as Windows parses it and
// refused, unopened, when a name would open something else than it says (a device, a stream, a
// trailing dot) or when it lies outside every root as written. It is then opened, and the path
// Windows reports for that handle (symbolic links, junctions and other reparse points followed,
// 8.3 short names made long) must lie in a root too: the file read is the handle checked, never
// reopened by name. Paths are UTF-8 here and UTF-16 at the calls.
#include "access_platform.hpp"

#include "mcpread/common/platform.hpp"
#include "mcpread/common/windows_paths.hpp"

#include <fcntl.h>
#include <io.h>
#include <sys/stat.h>

#include <cstdlib>
#include <system_error>
#include <vector>

namespace mcpread::readers::access_detail {
namespace fs = std::filesystem;
namespace wp = platform::windows_paths;

namespace {

std::string system_text(DWORD err) {
  std::string text = std::system_category().message(static_cast<int>(err));
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == '.' || text.back() == ' '))
    text.pop_back();
  return text;
}

bool is_relative(std::string_view p) {
  return !(p.size() >= 2 && p[1] == ':') && !(p.size() >= 1 && wp::is_separator(p[0]));
}

std::optional<wp::Parsed> parsed_of(const fs::path& p) {
  std::string why;
  return wp::parse_absolute(platform::path_to_utf8(p), &why);
}

fs::path path_of(const wp::Parsed& p) { return platform::path_from_utf8(wp::to_string(p)); }

// An open handle and what Windows reports for it.
struct Opened {
  HANDLE handle = INVALID_HANDLE_VALUE;
  std::optional<wp::Parsed> final;
  BY_HANDLE_FILE_INFORMATION info{};
  ~Opened() {
    if (handle != INVALID_HANDLE_VALUE) ::CloseHandle(handle);
  }
};

// Opens `path` for reading (folders too: FILE_FLAG_BACKUP_SEMANTICS), sharing everything so that
// no other program is ever blocked. The error code, or 0.
DWORD open_for_reading(const std::string& path, Opened* out) {
  out->handle = ::CreateFileW(platform::windows::widen(path).c_str(), GENERIC_READ,
                              FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, nullptr, OPEN_EXISTING,
                              FILE_FLAG_BACKUP_SEMANTICS, nullptr);
  if (out->handle == INVALID_HANDLE_VALUE) return ::GetLastError();
  std::wstring buf(MAX_PATH, L'\0');
  DWORD n = ::GetFinalPathNameByHandleW(out->handle, buf.data(), static_cast<DWORD>(buf.size()), VOLUME_NAME_DOS);
  if (n >= buf.size()) {
    buf.resize(n + 1);
    n = ::GetFinalPathNameByHandleW(out->handle, buf.data(), static_cast<DWORD>(buf.size()), VOLUME_NAME_DOS);
  }
  if (n == 0 || n >= buf.size()) return ::GetLastError();
  buf.resize(n);
  std::string why;
  out->final = wp::parse_absolute(platform::windows::narrow(buf), &why);
  if (!out->final) return ERROR_BAD_PATHNAME;
  if (!::GetFileInformationByHandle(out->handle, &out->info)) return ::GetLastError();
  return 0;
}

bool is_directory(const Opened& o) { return (o.info.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY) != 0; }

// The file or folder `shown` names does not exist: says which part is missing, with similar
// names from the deepest folder that exists inside the roots.
AccessError missing(const Roots& roots, const std::string& shown, const wp::Parsed& parsed) {
  wp::Parsed dir = parsed;
  std::string name;
  std::string lead;
  while (!dir.parts.empty()) {
    const std::string last = dir.parts.back();
    dir.parts.pop_back();
    Opened o;
    if (open_for_reading(wp::to_string(dir), &o) == 0) {
      const fs::path found = path_of(*o.final);
      if (!roots.contains(found)) return outside_roots(roots, shown);
      if (!is_directory(o))  // a path going on past a file (an archive's member is tried first)
        return {"Cannot read " + shown + ": " + wp::to_string(dir) + " is not a directory (it is a file).",
                AccessError::Reason::not_found};
      if (name.empty()) return not_found(shown, "", found, last);
      return not_found(shown, " The directory " + wp::to_string(dir) + "\\" + last + " does not exist.", found, last);
    }
    name = last;
  }
  return {"File not found: " + shown + ".", AccessError::Reason::not_found};
}

}  // namespace

// "~" and "~/x" (or "~\x") become the profile folder and a path in it.
std::string expand_home(std::string_view p) {
  if (p == "~" || p.starts_with("~/") || p.starts_with("~\\")) {
    if (const wchar_t* home = ::_wgetenv(L"USERPROFILE"); home != nullptr && *home != L'\0')
      return platform::windows::narrow(home) + std::string(p.substr(1));
  }
  return std::string(p);
}

std::optional<fs::path> resolve_directory(std::string_view dir, std::string* why) {
  std::string path = expand_home(dir);
  if (is_relative(path)) {  // relative to the current folder, as realpath() takes it
    std::wstring full(MAX_PATH, L'\0');
    const std::wstring wide = platform::windows::widen(path);
    DWORD n = ::GetFullPathNameW(wide.c_str(), static_cast<DWORD>(full.size()), full.data(), nullptr);
    if (n >= full.size()) {
      full.resize(n + 1);
      n = ::GetFullPathNameW(wide.c_str(), static_cast<DWORD>(full.size()), full.data(), nullptr);
    }
    if (n == 0 || n >= full.size()) {
      *why = system_text(::GetLastError());
      return std::nullopt;
    }
    full.resize(n);
    path = platform::windows::narrow(full);
  }
  Opened o;
  if (const DWORD err = open_for_reading(path, &o); err != 0) {
    *why = system_text(err);
    return std::nullopt;
  }
  if (!is_directory(o)) {
    *why = "it is not a folder";
    return std::nullopt;
  }
  return path_of(*o.final);
}

bool within(const fs::path& dir, const fs::path& p) {
  const auto d = parsed_of(dir);
  const auto q = parsed_of(p);
  return d && q && wp::within(*d, *q);
}

AccessResult open_checked(const Roots& roots, std::string_view requested) {
  std::string path = expand_home(requested);
  if (is_relative(path)) path = platform::path_to_utf8(roots.dirs().front()) + "\\" + path;
  std::string why;
  const auto parsed = wp::parse_absolute(path, &why);
  if (!parsed)
    return AccessError{"Cannot read " + std::string(requested) + ": " + why +
                       ". Give an absolute path such as C:\\folder\\file.txt, or one relative to " +
                       roots.dirs().front().string() + "."};
  const std::string shown = wp::to_string(*parsed);
  if (std::string problem = wp::path_problem(*parsed); !problem.empty())
    return AccessError{"Cannot read " + shown + ": " + problem + "."};
  // Outside every root as written: refused before anything is opened.
  if (!roots.contains(path_of(*parsed))) return outside_roots(roots, shown);

  Opened o;
  if (const DWORD err = open_for_reading(shown, &o); err != 0) {
    if (err == ERROR_FILE_NOT_FOUND || err == ERROR_PATH_NOT_FOUND || err == ERROR_INVALID_NAME)
      return missing(roots, shown, *parsed);
    if (err == ERROR_ACCESS_DENIED) return permission_denied(shown, system_text(err));
    if (err == ERROR_SHARING_VIOLATION || err == ERROR_LOCK_VIOLATION)
      return AccessError{"Cannot read " + shown + ": another program holds it open without sharing it (" +
                         system_text(err) + "). Close it there and try again."};
    return AccessError{"Cannot read " + shown + ": " + system_text(err) + "."};
  }
  const fs::path resolved = path_of(*o.final);
  if (!roots.contains(resolved))
    return AccessError{"Access denied: " + shown + " goes through a symbolic link or junction that leads outside "
                       "the allowed roots (" + roots.describe() + ") to " + wp::to_string(*o.final) + ".",
                       AccessError::Reason::outside_roots};
  if (is_directory(o)) return DirectoryTarget{resolved};
  if (::GetFileType(o.handle) != FILE_TYPE_DISK)
    return AccessError{shown + " is a device or pipe, not a file; only files and folders can be read.",
                       AccessError::Reason::special_file};

  // The handle becomes a C descriptor, which the readers use as on other systems.
  const int fd = ::_open_osfhandle(reinterpret_cast<intptr_t>(o.handle), _O_RDONLY | _O_BINARY);
  if (fd < 0) return AccessError{"Cannot read " + shown + ": no descriptor is left for it. Try again."};
  o.handle = INVALID_HANDLE_VALUE;  // the descriptor owns it now
  UniqueFd owned(fd);
  struct stat st {};
  if (::fstat(fd, &st) != 0)
    return AccessError{"Cannot read " + shown + ": " + std::generic_category().message(errno) + "."};
  return OpenedFile{std::move(owned), st, resolved};
}

}  // namespace mcpread::readers::access_detail
