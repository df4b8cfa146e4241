// An archive's listing: like a directory's (listing.cpp), a page of entries from `offset`, at
// most `limit` and the output cap, each with its size and type, and in every listing the way to
// read a member: the archive's path followed by the member's.
#include "archive/archive_reader.hpp"

#include "human_size.hpp"
#include "listing_page.hpp"
#include "mcpread/readers/hint.hpp"
#include "mcpread/readers/utf8.hpp"

#include <algorithm>

namespace mcpread::readers::archive {
namespace {

// One line per name whatever it holds: control characters escaped.
std::string one_line(std::string_view name) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (char c : name) {
    const auto b = static_cast<unsigned char>(c);
    if (b < 0x20 || b == 0x7f) {
      out += "\\x";
      out += kHex[b >> 4];
      out += kHex[b & 0xF];
    } else {
      out += c;
    }
  }
  return out;
}

std::string counted(std::uint64_t n, std::string_view one, std::string_view many) {
  return std::to_string(n) + " " + std::string(n == 1 ? one : many);
}

// "docs/readme.txt  1.2 KB", "docs/", "evil -> /etc/passwd  (symbolic link)".
std::string entry_line(const Member& m) {
  std::string line = one_line(m.name);
  switch (m.type) {
    case MemberType::file:
      line += "  " + (m.size_known ? human_size(m.size) : std::string("size unknown"));
      break;
    case MemberType::directory: line += '/'; break;
    case MemberType::symlink: line += " -> " + one_line(m.link) + "  (symbolic link)"; break;
    case MemberType::hardlink: line += " => " + one_line(m.link) + "  (hard link)"; break;
    default: line += "  (" + member_kind(m).substr(member_kind(m).find(' ') + 1) + ")"; break;
  }
  if (m.encrypted) line += "  (encrypted)";
  if (m.unsafe_name) line += "  (name leads out of the archive: not read)";
  return line;
}

}  // namespace

ReadOutcome list_members(const std::string& shown, const Index& index, std::string_view folder,
                         const ReadRequest& request, const ReadLimits& limits) {
  std::vector<const Member*> members;
  const std::string prefix = folder.empty() ? std::string() : std::string(folder) + "/";
  for (const Member& m : index.members)
    if (prefix.empty() || (m.name.starts_with(prefix) && m.name.size() > prefix.size())) members.push_back(&m);
  std::uint64_t directories = 0;
  std::uint64_t files = 0;
  for (const Member* m : members) {
    directories += m->type == MemberType::directory;
    files += m->type == MemberType::file;
  }
  const std::uint64_t others = members.size() - directories - files;
  const std::uint64_t total = members.size();
  const std::uint64_t offset = std::max<std::uint64_t>(request.offset.value_or(1), 1);
  const std::uint64_t page_size = std::max<std::uint64_t>(
      1, std::min<std::uint64_t>(request.limit.value_or(limits.max_directory_entries), limits.max_directory_entries));
  const std::uint64_t first = std::min(offset - 1, total);
  const std::uint64_t page = std::min(total - first, page_size);

  const std::string where = utf8::sanitized(prefix.empty() ? shown : shown + "/" + std::string(folder));
  ReadOutcome out;
  out.meta = {{"path", where},        {"format", index.format},   {"entries", total},
              {"directories", directories}, {"files", files}, {"shown", 0},
              {"truncated", false}};
  // How to read a member, in every listing: the archive's path, then the member's.
  const Member* example = nullptr;
  for (const Member* m : members)
    if (m->type == MemberType::file && !m->unsafe_name && !m->encrypted) {
      example = m;
      break;
    }
  const std::string how = "[To read a member, read the archive's path followed by the member's path" +
                          (example != nullptr ? ", e.g. " + utf8::sanitized(shown + "/" + one_line(example->name)) : std::string()) +
                          "; archives inside archives the same way.]";
  const std::string head = (prefix.empty() ? "Archive " : "Folder ") + where + " (" + index.format + "): " +
                           counted(total, "entry", "entries") + " (" +
                           counted(directories, "directory", "directories") + ", " +
                           counted(files, "file", "files") +
                           (others > 0 ? ", " + counted(others, "other", "others") : std::string()) + "; " +
                           human_size(index.file_bytes) + " unpacked)";
  const std::string damage = index.damage.empty() ? std::string()
                                                  : "\n[The archive is damaged after entry " + std::to_string(index.members.size()) +
                                                        ": " + index.damage + ". The entries before it are listed.]";
  if (total == 0) {
    out.blocks.emplace_back(TextBlock{head + damage});
    return out;
  }
  const ListingWindow window{offset, first, page, total, "Entries",
                             "the end of the archive " + where + ": it has " + counted(total, "entry", "entries")};
  const auto line_at = [&](std::uint64_t i) {
    std::string line;
    utf8::append_sanitized(entry_line(*members[i]), line);
    return line;
  };
  return fill_listing_page(std::move(out), head, window, line_at, limits.text.max_output_bytes, damage + "\n" + how,
                           request.wording);
}

}  // namespace mcpread::readers::archive
