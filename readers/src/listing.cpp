#include "mcpread/readers/hint.hpp"
#include "mcpread/readers/listing.hpp"

#include <algorithm>
#include <string>
#include <system_error>
#include <vector>

#include "dir_scan.hpp"
#include "mcpread/common/platform.hpp"
#include "mcpread/readers/utf8.hpp"

namespace mcpread::readers {
namespace {

// Counting stops here so that a pathological directory cannot hold the reader for long.
constexpr std::size_t kMaxScanned = 1'000'000;

struct Entry {
  std::string name;
  bool directory = false;
  bool operator<(const Entry& o) const { return name < o.name; }  // byte order
};

// One line per name, whatever bytes it holds: control characters are escaped and invalid
// UTF-8 becomes U+FFFD, so the listing stays valid UTF-8 with one entry per line.
void append_name(std::string_view name, std::string& out) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string escaped;
  escaped.reserve(name.size());
  for (char c : name) {
    const auto b = static_cast<unsigned char>(c);
    if (c == '\n') {
      escaped += "\\n";
    } else if (c == '\t') {
      escaped += "\\t";
    } else if (c == '\r') {
      escaped += "\\r";
    } else if (b < 0x20 || b == 0x7f) {
      escaped += "\\x";
      escaped += kHex[b >> 4];
      escaped += kHex[b & 0xF];
    } else {
      escaped += c;
    }
  }
  utf8::append_sanitized(escaped, out);
}

std::string counted(std::size_t n, std::string_view one, std::string_view many) {
  return std::to_string(n) + " " + std::string(n == 1 ? one : many);
}

// Keeps only the `keep` smallest names once the vector grows well past it.
void trim(std::vector<Entry>& entries, std::size_t keep) {
  if (entries.size() <= keep) return;
  std::nth_element(entries.begin(), entries.begin() + static_cast<std::ptrdiff_t>(keep),
                   entries.end());
  entries.resize(keep);
}

ReadOutcome list_error(const std::filesystem::path& dir, const std::error_code& err) {
  std::string path;
  append_name(platform::path_to_utf8(dir), path);
  if (err == std::errc::permission_denied || err == std::errc::operation_not_permitted)
    return ReadOutcome::error("Permission denied: cannot list the directory " + path + " (" +
                              err.message() + "). Check the directory's permissions.");
  return ReadOutcome::error("Cannot list the directory " + path + ": " + err.message() + ".");
}

}  // namespace

ReadOutcome list_directory(const std::filesystem::path& dir, std::size_t max_entries,
                           std::uint64_t offset, std::size_t max_output_bytes, const Wording& wording) {
  if (offset == 0) offset = 1;
  if (max_entries == 0) max_entries = 1;
  // The names up to the end of the page are kept: those before it only to find where it starts.
  const std::size_t keep = offset - 1 >= kMaxScanned || max_entries > kMaxScanned
                               ? kMaxScanned + 1  // everything scanned
                               : static_cast<std::size_t>(offset - 1) + max_entries;
  std::vector<Entry> entries;
  const std::size_t trim_at = keep > kMaxScanned
                                  ? kMaxScanned + 1  // never: everything scanned fits
                                  : std::max<std::size_t>(2 * keep, 1024);
  std::size_t total = 0;
  std::size_t directories = 0;
  bool at_least = false;
  const std::error_code scan_error = dir_scan::scan(dir, [&](std::string_view name, bool is_dir) {
    if (total == kMaxScanned) {
      at_least = true;
      return false;
    }
    ++total;
    if (is_dir) ++directories;
    entries.push_back(Entry{std::string(name), is_dir});
    if (entries.size() >= trim_at) trim(entries, keep);
    return true;
  });
  if (scan_error) return list_error(dir, scan_error);

  const std::string dir_name = platform::path_to_utf8(dir);
  std::string path;
  append_name(dir_name, path);
  ReadOutcome out;
  const std::size_t files = total - directories;
  const std::size_t first = offset - 1 < total ? static_cast<std::size_t>(offset - 1) : total;
  const std::size_t page = std::min(total - first, max_entries);
  std::string meta_path;
  utf8::append_sanitized(dir_name, meta_path);
  out.meta = {{"path", meta_path}, {"entries", total},   {"directories", directories},
              {"files", files},     {"shown", page},      {"truncated", first + page < total},
              {"entries_at_least", at_least}};  // true: counting stopped at kMaxScanned
  if (total == 0) {
    out.blocks.emplace_back(TextBlock{"Directory " + path + ": empty."});
    return out;
  }
  const std::string count = (at_least ? "at least " : "") + counted(total, "entry", "entries");
  if (page == 0) {
    ReadOutcome err = ReadOutcome::error(
        "Offset " + std::to_string(offset) + " is past the end of the directory " + path + ": it has " +
        count + ". Use an offset from 1 to " + std::to_string(total) + ".");
    err.meta = std::move(out.meta);
    return err;
  }
  trim(entries, first + page);
  std::sort(entries.begin(), entries.end());

  std::string text = "Directory " + path + ": " + count + " (" +
                     counted(directories, "directory", "directories") + ", " +
                     counted(files, "file", "files") + ")";
  // The output cap counts as in the text reader: what is shown (one entry at least), not the notes.
  std::size_t shown = 0;
  std::string line;
  for (; shown < page; ++shown) {
    const Entry& entry = entries[first + shown];
    line = "\n";
    append_name(entry.name, line);
    if (entry.directory) line += '/';
    if (shown > 0 && text.size() + line.size() > max_output_bytes) break;
    text += line;
  }
  const bool capped = shown < page;
  const bool more = first + shown < total;
  out.meta["shown"] = shown;
  out.meta["truncated"] = more;
  out.meta["start_entry"] = first + 1;
  out.meta["end_entry"] = first + shown;
  if (more) out.meta["next_offset"] = first + shown + 1;
  // As the text reader closes a window of lines: which entries, and the offset to go on from.
  const std::string range = std::to_string(first + 1) + "-" + std::to_string(first + shown);
  const std::string next =
      "To list more, " + wording.say({.offset = first + shown + 1}, HintForm::call_again) + ".]";
  if (capped)
    text += "\n[Output capped at " + std::to_string(max_output_bytes) + " bytes: entries " + range +
            " of " + count + " shown. " + next;
  else if (more)
    text += "\n[Entries " + range + " of " + count + ". " + next;
  else if (first > 0)
    text += "\n[Entries " + range + " of " + count + ". End of listing.]";
  if (at_least)
    text += "\n[Stopped counting after " + counted(total, "entry", "entries") + ".]";
  out.blocks.emplace_back(TextBlock{std::move(text)});
  return out;
}

}  // namespace mcpread::readers
