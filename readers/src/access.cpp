#include "mcpread/readers/access.hpp"

#include "access_platform.hpp"
#include "mcpread/common/platform.hpp"
#include "mcpread/readers/utf8.hpp"
#include "similar.hpp"

#if defined(_WIN32)
#include <io.h>
#else
#include <unistd.h>
#endif

#include <algorithm>

namespace mcpread::readers {
namespace fs = std::filesystem;

namespace {

// On Linux close() releases the descriptor even when it reports EINTR; retrying could close a
// descriptor another thread has just been given. So: exactly one call, result ignored.
void close_fd(int fd) {
#if defined(_WIN32)
  if (fd >= 0) (void)::_close(fd);
#else
  if (fd >= 0) (void)::close(fd);
#endif
}

// Keeps the order (the first root anchors relative paths) but drops duplicates and roots that
// lie inside another root.
std::vector<fs::path> normalise_roots(const std::vector<fs::path>& in) {
  std::vector<fs::path> out;
  for (std::size_t i = 0; i < in.size(); ++i) {
    bool drop = false;
    for (std::size_t j = 0; j < in.size() && !drop; ++j) {
      if (i == j) continue;
      drop = in[i] == in[j] ? j < i : access_detail::within(in[j], in[i]);
    }
    if (!drop) out.push_back(in[i]);
  }
  return out;
}

}  // namespace

namespace access_detail {

AccessError outside_roots(const Roots& roots, const std::string& requested) {
  return {"Access denied: " + requested + " is outside the allowed roots (" + roots.describe() +
              "). Read a file inside them, or start the server with the directory as a root.",
          AccessError::Reason::outside_roots};
}

AccessError not_found(const std::string& requested, const std::string& lead, const fs::path& dir,
                      const std::string& name) {
  std::string msg = "File not found: " + requested + "." + lead;
  auto names = similar_names(dir, name);
  for (std::size_t i = 0; i < names.size(); ++i)
    msg += (i == 0 ? " Did you mean: " : ", ") + platform::path_to_utf8(dir / platform::path_from_utf8(names[i]));
  if (!names.empty()) msg += "?";
  return {msg, AccessError::Reason::not_found};
}

AccessError permission_denied(const std::string& requested, const std::string& why) {
  return {"Permission denied: cannot read " + requested + " (" + why + "). Check the file's permissions."};
}

}  // namespace access_detail

UniqueFd& UniqueFd::operator=(UniqueFd&& o) noexcept {
  if (this != &o) {
    close_fd(fd_);
    fd_ = o.release();
  }
  return *this;
}

UniqueFd::~UniqueFd() { close_fd(fd_); }

bool Roots::from_paths(const std::vector<std::string>& dirs, Roots* out, std::string* error) {
  std::vector<fs::path> resolved;
  for (const auto& d : dirs) {
    std::string why;
    auto r = access_detail::resolve_directory(d, &why);
    if (!r) {
      if (error != nullptr)
        *error = utf8::sanitized("Cannot use " + (d.empty() ? std::string("an empty path") : d) +
                                 " as an allowed root: " + why + ".");
      return false;
    }
    resolved.push_back(std::move(*r));
  }
  out->dirs_ = normalise_roots(resolved);
  return true;
}

Roots Roots::narrowed_by(const std::vector<std::string>& client_dirs, bool replace) const {
  if (client_dirs.empty()) return *this;
  std::vector<fs::path> client;
  for (const auto& d : client_dirs) {
    std::string why;
    if (auto r = access_detail::resolve_directory(d, &why)) client.push_back(std::move(*r));
  }
  std::vector<fs::path> kept;
  if (replace) {
    if (client.empty()) return *this;  // nothing usable: keep the default root
    kept = client;
  } else {
    for (const auto& c : client)
      for (const auto& r : dirs_) {
        if (access_detail::within(r, c))
          kept.push_back(c);
        else if (access_detail::within(c, r))
          kept.push_back(r);
      }
  }
  Roots result;
  result.dirs_ = normalise_roots(kept);
  return result;
}

bool Roots::contains(const fs::path& resolved) const {
  return std::any_of(dirs_.begin(), dirs_.end(),
                     [&](const fs::path& d) { return access_detail::within(d, resolved); });
}

std::string Roots::describe() const {
  if (dirs_.empty()) return "none";
  std::string s;
  for (const auto& d : dirs_) s += (s.empty() ? "" : ", ") + d.string();
  return s;
}

AccessResult open_in_roots(const Roots& roots, std::string_view requested) {
  const std::string req(requested);
  AccessResult result;
  if (roots.empty())
    result = AccessError{"Access denied: no directory is allowed (the list of allowed roots is "
                         "empty), so " + (req.empty() ? std::string("nothing") : req) +
                         " cannot be read.",
                         AccessError::Reason::outside_roots};
  else if (requested.empty())
    result = AccessError{"The file path is empty. Give an absolute path, or one relative to " +
                         roots.dirs().front().string() + "."};
  else if (requested.find('\0') != std::string_view::npos)
    result = AccessError{"The file path contains a NUL character, which no file name can hold."};
  else
    result = access_detail::open_checked(roots, requested);
  // Paths in messages are the user's bytes and the file system's: made valid UTF-8 here.
  if (auto* e = std::get_if<AccessError>(&result)) e->message = utf8::sanitized(e->message);
  return result;
}

std::optional<PathInsideFile> split_at_file(const Roots& roots, std::string_view requested) {
  if (roots.empty() || requested.empty() || requested.find('\0') != std::string_view::npos) return std::nullopt;
  fs::path p = platform::path_from_utf8(access_detail::expand_home(requested));
  if (p.is_relative()) p = roots.dirs().front() / p;
  const fs::path normal = p.lexically_normal();
  // From the root ("/", "C:\"): Windows' C runtime finds nothing at a bare drive name ("C:").
  fs::path prefix = normal.root_path();
  const fs::path below_root = normal.relative_path();
  auto part = below_root.begin();
  for (; part != below_root.end(); ++part) {
    if (part->empty()) continue;  // the trailing slash's empty name
    prefix /= *part;
    std::error_code ec;
    const fs::file_status status = fs::status(prefix, ec);  // links followed, as the open will
    if (ec) return std::nullopt;
    if (fs::is_regular_file(status)) break;
    if (!fs::is_directory(status)) return std::nullopt;
  }
  if (part == below_root.end()) return std::nullopt;
  std::string inner;
  for (++part; part != below_root.end(); ++part)
    if (!part->empty()) inner += (inner.empty() ? "" : "/") + platform::path_to_utf8(*part);
  return PathInsideFile{platform::path_to_utf8(prefix), std::move(inner)};
}

std::vector<std::string> similar_names(const fs::path& dir, std::string_view name,
                                       std::size_t max) {
  return detail::similar_names(dir, name, max);
}

}  // namespace mcpread::readers
