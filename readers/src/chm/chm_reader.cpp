// A help file's listing: its title, then a page of topics as its table of contents nests them,
// each with the path that reads it, and in every listing how to read one. A help file without a
// table of contents lists its HTML files.
#include "chm/chm_reader.hpp"

#include "human_size.hpp"
#include "inside_file.hpp"
#include "listing_page.hpp"
#include "mcpread/readers/charset.hpp"
#include "mcpread/readers/hint.hpp"
#include "mcpread/readers/utf8.hpp"
#include "memory_file.hpp"
#include "read_opened.hpp"

#include <algorithm>
#include <unordered_map>

namespace mcpread::readers::chm {
namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  return out;
}

std::string counted(std::uint64_t n, std::string_view one, std::string_view many) {
  return std::to_string(n) + " " + std::string(n == 1 ? one : many);
}

// A name on one line, whatever it holds: control characters escaped, invalid UTF-8 replaced.
std::string one_line(std::string_view name) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (char c : utf8::sanitized(name)) {
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

// A title on one line: its runs of blanks (line breaks, tabs) made one space, none at the ends.
std::string collapsed(std::string_view s) {
  std::string out;
  for (char c : s) {
    const bool blank = c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
    if (!blank) out += c;
    else if (!out.empty() && out.back() != ' ') out += ' ';
  }
  if (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

// Text of the help file's own charset (often a Windows code page) as UTF-8.
std::string as_utf8(std::string_view bytes) {
  if (utf8::sanitized(bytes) == bytes) return std::string(bytes);
  const DetectedCharset cs =
      detect_charset(std::span(reinterpret_cast<const unsigned char*>(bytes.data()), std::min<std::size_t>(bytes.size(), 1 << 16)));
  Utf8Converter converter(cs.name);
  if (!converter.ok()) return utf8::sanitized(bytes);
  std::string out;
  converter.convert(bytes, out, true);
  return out;
}

bool is_html(std::string_view name) {
  const std::string n = lower(name);
  return n.ends_with(".htm") || n.ends_with(".html");
}

struct Line {
  std::string text;     // the topic as listed
  std::string example;  // the member it reads, when it is one
};

// The listed topics: the table of contents', or the HTML files.
std::vector<Line> topic_lines(const Extracted& e, bool* from_contents, bool* cut) {
  std::unordered_map<std::string, const Entry*> by_name;  // lower-cased: names are looked up so
  for (const Entry& entry : e.entries) by_name.emplace(lower(entry.name), &entry);
  std::vector<Line> lines;
  *cut = false;
  const std::vector<Topic> topics = parse_contents(as_utf8(e.contents), cut);
  *from_contents = !topics.empty();
  for (const Topic& t : topics) {
    Line line;
    line.text = std::string(2 * static_cast<std::size_t>(std::min(t.depth, 8)), ' ') + one_line(collapsed(t.title));
    const std::string member = member_of_local(t.local);
    if (!t.local.empty() && member.empty()) {
      line.text += " — " + one_line(t.local) + "  (a link out of the file)";
    } else if (!member.empty()) {
      // The name as stored; a Local written with a folder the file lacks ("Z:/shared/a.htm", as
      // old compilers kept) matched by its last components.
      const Entry* found = nullptr;
      for (std::string_view tail = member; found == nullptr && !tail.empty();) {
        if (auto it = by_name.find(lower(tail)); it != by_name.end()) found = it->second;
        const std::size_t slash = tail.find('/');
        tail = slash == std::string_view::npos ? std::string_view() : tail.substr(slash + 1);
      }
      if (found != nullptr) {
        line.text += (line.text.ends_with(' ') || line.text.empty() ? "" : " — ") + one_line(found->name);
        line.example = found->name;
      } else {
        line.text += (line.text.ends_with(' ') || line.text.empty() ? "" : " — ") + one_line(member) + "  (not in the file)";
      }
    }
    lines.push_back(std::move(line));
  }
  if (*from_contents) return lines;
  for (const Entry& entry : e.entries)
    if (is_html(entry.name)) lines.push_back({one_line(entry.name) + "  " + human_size(entry.size), entry.name});
  return lines;
}

ReadOutcome refusal(const std::string& message) { return ReadOutcome::error(utf8::sanitized(message)); }

}  // namespace

ReadOutcome list_topics(const std::string& shown_raw, const Extracted& e, const ReadRequest& request,
                        const ReadLimits& limits) {
  const std::string shown = utf8::sanitized(shown_raw);
  bool from_contents = false, cut = false;
  const std::vector<Line> lines = topic_lines(e, &from_contents, &cut);
  std::uint64_t bytes = 0;
  for (const Entry& entry : e.entries) bytes += entry.size;
  std::string title = one_line(collapsed(as_utf8(parse_system(e.system).title)));
  if (title.size() >= 2 && title.front() == '"' && title.back() == '"') title = title.substr(1, title.size() - 2);
  const std::uint64_t total = lines.size();
  const std::uint64_t offset = std::max<std::uint64_t>(request.offset.value_or(1), 1);
  const std::uint64_t page_size = std::max<std::uint64_t>(
      1, std::min<std::uint64_t>(request.limit.value_or(limits.max_directory_entries), limits.max_directory_entries));
  const std::uint64_t first = std::min(offset - 1, total);
  const std::uint64_t page = std::min(total - first, page_size);

  ReadOutcome out;
  out.meta = {{"path", shown},   {"format", "CHM"},        {"topics", total},   {"files", e.entries.size()},
              {"shown", 0},      {"truncated", false},     {"contents", from_contents ? one_line(e.contents_name) : ""}};
  std::string head = "Compiled HTML help " + shown + (title.empty() ? std::string() : " (\"" + title + "\")") + ": " +
                     counted(total, "topic", "topics") +
                     (from_contents ? " from its table of contents " + one_line(e.contents_name)
                                    : std::string(" (its HTML files: it has no table of contents)")) +
                     "; " + counted(e.entries.size(), "file", "files") + (e.entries_cut ? " listed at most" : "") +
                     ", " + human_size(bytes) + ".";
  if (cut) head += "\n[The table of contents has more than " + std::to_string(kMaxTopics) + " topics: the first are listed.]";
  const Line* example = nullptr;
  for (const Line& l : lines)
    if (!l.example.empty()) {
      example = &l;
      break;
    }
  const std::string how = "[To read a topic (as Markdown) or a picture, read the help file's path followed by the file's" +
                          (example != nullptr ? ", e.g. " + shown + "/" + one_line(example->example) : std::string()) +
                          ".]";
  if (total == 0) {
    out.blocks.emplace_back(TextBlock{head + "\n[It has no topics to list.]"});
    return out;
  }
  const ListingWindow window{offset, first, page, total, "Topics",
                             "the end of the topics of " + shown + ": it has " + counted(total, "topic", "topics")};
  return fill_listing_page(std::move(out), head, window, [&](std::uint64_t i) { return lines[i].text; },
                           limits.text.max_output_bytes, "\n" + how, request.wording);
}

ReadOutcome read_chm_file(const OpenedFile& file, const ReadRequest& request, const ReadLimits& limits,
                          const CancelToken& cancel) {
  const std::string shown = file.path.string();
  Extracted e;
  std::string error;
  if (!extract(file.fd.get(), true, {}, &e, &error, cancel)) {
    if (cancel.cancelled()) return ReadOutcome::stopped();
    return refusal("Cannot read " + shown + " as compiled HTML help: " + error + ".");
  }
  return list_topics(shown, e, request, limits);
}

std::optional<ReadOutcome> read_inside(const Roots& roots, const PathInsideFile& inside, const ReadRequest& request,
                                       const ReadLimits& limits, const CancelToken& cancel) {
  OuterFile outer = open_outer_file(roots, inside, kChmKind, request);
  if (auto* answer = std::get_if<ReadOutcome>(&outer)) return std::move(*answer);
  if (!std::holds_alternative<OpenedFile>(outer)) return std::nullopt;
  const OpenedFile& file = std::get<OpenedFile>(outer);
  const std::string shown = file.path.string();
  const std::string name = inside.inner;
  const std::string path = shown + "/" + name;
  const std::string list_it = " Read " + shown + " to list its topics.";
  if (name.size() > kMaxNameBytes || name.find('\0') != std::string::npos)
    return refusal("File not found: " + path + ": " + shown + " holds no file of that name." + list_it);
  Extracted e;
  std::string error;
  if (!extract(file.fd.get(), false, "/" + name, &e, &error, cancel)) {
    if (cancel.cancelled()) return ReadOutcome::stopped();
    return refusal("Cannot read " + path + ": " + error + ".");
  }
  if (!e.member_found) return refusal("File not found: " + path + ": " + shown + " holds no file of that name." + list_it);
  if (e.member_size > kMaxMemberBytes)
    return refusal("Cannot read " + path + ": it is " + human_size(e.member_size) + ", over the " +
                   human_size(kMaxMemberBytes) + " read at most of one file inside a help file.");
  if (e.member.size() < e.member_size)
    return refusal("Cannot read " + path + ": CHMLib took " + std::to_string(e.member.size()) + " of its " +
                   std::to_string(e.member_size) + " bytes out of " + shown + ", which is damaged.");
  std::string why;
  auto opened = memory_file(e.member, path, &why);
  if (!opened) return refusal("Cannot read " + path + ": " + why + ".");
  return read_opened(*opened, request, limits, cancel);
}

}  // namespace mcpread::readers::chm
