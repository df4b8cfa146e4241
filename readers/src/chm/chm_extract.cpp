// extract(): CHMLib in a child process. The parts of the exchange that are not CHMLib's (the
// message, #SYSTEM's records) are built on every platform, for the tests and the fuzz target.
#include "chm/chm_extract.hpp"

#include "child_message.hpp"

#if !defined(_WIN32)
#include "chm/chm_api.hpp"
#include "child_process.hpp"
#include "mcpread/common/platform.hpp"

#include <strings.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#endif

namespace mcpread::readers::chm {
namespace {

void put64(std::string& out, std::uint64_t v) {
  child_message::put32(out, static_cast<std::uint32_t>(v & 0xFFFFFFFFu));
  child_message::put32(out, static_cast<std::uint32_t>(v >> 32));
}
std::uint64_t get64(child_message::Cursor& in) {
  const std::uint64_t low = in.u32();
  return low | (std::uint64_t{in.u32()} << 32);
}

#if !defined(_WIN32)

struct Walk {
  Extracted* out;
  std::vector<std::string> contents;  // the .hhc files met, in order
};

bool ends_with_nocase(std::string_view s, std::string_view tail) {
  if (s.size() < tail.size()) return false;
  for (std::size_t i = 0; i < tail.size(); ++i)
    if ((s[s.size() - tail.size() + i] | 0x20) != tail[i]) return false;
  return true;
}

int on_entry(chmFile*, chmUnitInfo* ui, void* context) {
  auto* walk = static_cast<Walk*>(context);
  const std::string_view path(ui->path, ::strnlen(ui->path, sizeof ui->path));
  if (path.size() < 2 || path.front() != '/') return CHM_ENUMERATOR_CONTINUE;
  if (walk->out->entries.size() >= kMaxEntries) {
    walk->out->entries_cut = true;
    return CHM_ENUMERATOR_SUCCESS;
  }
  walk->out->entries.push_back({std::string(path.substr(1)), ui->length});
  if (ends_with_nocase(path, ".hhc")) walk->contents.emplace_back(path);
  return CHM_ENUMERATOR_CONTINUE;
}

// The bytes of `path` when it is a file of at most `max` bytes; *size its stored size. False when
// no such file.
bool take(const Api& a, chmFile* h, const std::string& path, std::uint64_t max, std::uint64_t* size,
          std::string* bytes) {
  chmUnitInfo ui{};
  if (path.empty() || path.size() > CHM_MAX_PATHLEN || path.find('\0') != std::string::npos) return false;
  if (a.resolve(h, path.c_str(), &ui) != CHM_RESOLVE_SUCCESS) return false;
  const std::string_view found(ui.path, ::strnlen(ui.path, sizeof ui.path));
  if (found.ends_with('/')) return false;  // a folder
  *size = ui.length;
  if (ui.length > max) return true;
  bytes->assign(static_cast<std::size_t>(ui.length), '\0');
  const LONGINT64 got = ui.length == 0 ? 0
                                       : a.retrieve(h, &ui, reinterpret_cast<unsigned char*>(bytes->data()), 0,
                                                    static_cast<LONGINT64>(ui.length));
  bytes->resize(got > 0 ? static_cast<std::size_t>(got) : 0);
  return true;
}

// The child's work: open, then list or take the member.
std::string work(const Api& a, const std::string& path, bool listing, const std::string& member) {
  chmFile* h = a.open(path.c_str());
  if (h == nullptr) return "E";  // not a help file CHMLib can open
  Extracted out;
  if (listing) {
    Walk walk{&out, {}};
    a.enumerate(h, CHM_ENUMERATE_NORMAL | CHM_ENUMERATE_FILES, on_entry, &walk);
    std::uint64_t size = 0;
    if (!take(a, h, "/#SYSTEM", kMaxSystemBytes, &size, &out.system) || size > kMaxSystemBytes) out.system.clear();
    // The contents file #SYSTEM names, else the first .hhc at the least depth.
    const std::string named = parse_system(out.system).contents;
    const std::string_view wanted = std::string_view(named).substr(named.starts_with('/') ? 1 : 0);
    std::string chosen;
    for (const std::string& c : walk.contents)
      if (!wanted.empty() && c.size() == wanted.size() + 1 && ::strncasecmp(c.c_str() + 1, wanted.data(), wanted.size()) == 0) {
        chosen = c;
        break;
      }
    const auto depth = [](const std::string& s) { return std::count(s.begin(), s.end(), '/'); };
    if (chosen.empty())
      for (const std::string& c : walk.contents)
        if (chosen.empty() || depth(c) < depth(chosen)) chosen = c;
    if (!chosen.empty() && take(a, h, chosen, kMaxContentsBytes, &size, &out.contents) && size <= kMaxContentsBytes)
      out.contents_name = chosen.substr(1);
    else
      out.contents.clear();
  }
  if (!member.empty()) out.member_found = take(a, h, member, kMaxMemberBytes, &out.member_size, &out.member);
  a.close(h);
  return "M" + write_message(out);
}

#endif

}  // namespace

std::string write_message(const Extracted& e) {
  std::string out;
  child_message::put32(out, (e.entries_cut ? 1u : 0u) | (e.member_found ? 2u : 0u));
  child_message::put32(out, static_cast<std::uint32_t>(e.entries.size()));
  for (const Entry& entry : e.entries) {
    child_message::put_text(out, entry.name);
    put64(out, entry.size);
  }
  child_message::put_text(out, e.system);
  child_message::put_text(out, e.contents_name);
  child_message::put_text(out, e.contents);
  put64(out, e.member_size);
  child_message::put_text(out, e.member);
  return out;
}

bool read_message(std::string_view bytes, Extracted* out) {
  child_message::Cursor in(bytes);
  Extracted e;
  const std::uint32_t flags = in.u32();
  e.entries_cut = (flags & 1u) != 0;
  e.member_found = (flags & 2u) != 0;
  const std::uint32_t count = in.count(12);  // a name's length and a size at least
  if (count > kMaxEntries) return false;
  e.entries.reserve(count);
  for (std::uint32_t i = 0; i < count && in.ok(); ++i) {
    Entry entry;
    entry.name = in.text();
    entry.size = get64(in);
    e.entries.push_back(std::move(entry));
  }
  e.system = in.text();
  e.contents_name = in.text();
  e.contents = in.text();
  e.member_size = get64(in);
  e.member = in.text();
  if (!in.done() || flags > 3u || e.member.size() > kMaxMemberBytes || e.contents.size() > kMaxContentsBytes)
    return false;
  *out = std::move(e);
  return true;
}

SystemInfo parse_system(std::string_view bytes) {
  SystemInfo info;
  // A version (4 bytes), then records: a code and a length (2 bytes each, little-endian), the data.
  for (std::size_t at = 4; at + 4 <= bytes.size();) {
    const unsigned code = static_cast<unsigned char>(bytes[at]) | (static_cast<unsigned char>(bytes[at + 1]) << 8);
    const std::size_t length = static_cast<unsigned char>(bytes[at + 2]) | (static_cast<unsigned char>(bytes[at + 3]) << 8);
    at += 4;
    if (length > bytes.size() - at) break;
    std::string_view data = bytes.substr(at, length);
    data = data.substr(0, data.find('\0'));  // strings end with a NUL
    if (code == 0) info.contents = data;
    else if (code == 2) info.default_topic = data;
    else if (code == 3) info.title = data;
    at += length;
  }
  return info;
}

#if !defined(_WIN32)

bool extract(int fd, bool listing, const std::string& member, Extracted* out, std::string* error,
             const CancelToken& cancel) {
  const Api* a = api(error);  // loaded here, once, so that every child has it
  if (a == nullptr) return false;
  const std::string path = platform::descriptor_path(fd);
  if (path.empty()) {
    *error = "CHMLib opens files by name, and this system has no /proc/self/fd to name the open file by";
    return false;
  }
  child_process::Limits limits;
  limits.cpu_seconds = 30;
  limits.wall = std::chrono::seconds(60);
  limits.extra_memory = 1ull << 30;
  limits.max_message = kMaxMemberBytes + kMaxContentsBytes + kMaxSystemBytes + (kMaxEntries * 600) + 64;
  limits.keep_descriptor = fd;
  const child_process::Outcome child =
      child_process::run([&] { return work(*a, path, listing, member); }, limits, cancel);
  constexpr std::string_view garbled = "CHMLib's process sent back what is not a help file's contents";
  const auto contents = child.contents(
      "CHMLib", limits, ": the help file is damaged",
      "CHMLib cannot open it: it is not a compiled HTML help file, or it is damaged", garbled, error);
  if (!contents) return false;
  if (!read_message(*contents, out)) {
    *error = garbled;
    return false;
  }
  return true;
}

#else

bool extract(int, bool, const std::string&, Extracted*, std::string* error, const CancelToken&) {
  // No fork, and no CHMLib in the Windows build: refused rather than parsed in the server.
  *error = "the Windows build of mcp-read does not include CHMLib, which reads compiled HTML help; read the file on Linux";
  return false;
}

#endif

}  // namespace mcpread::readers::chm
