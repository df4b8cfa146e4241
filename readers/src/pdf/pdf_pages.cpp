#include "pdf/pdf_pages.hpp"

#include "mcpread/readers/hint.hpp"
#include "mcpread/readers/utf8.hpp"
#include "paging/page_ranges.hpp"

#include <algorithm>

namespace mcpread::readers::pdf_pages {

std::string marker(int page, int count) {
  return "\u2500\u2500 Page " + std::to_string(page) + " of " + std::to_string(count) +
         " \u2500\u2500";
}

std::string count_pages(std::size_t n) { return std::to_string(n) + (n == 1 ? " page" : " pages"); }

// Valid UTF-8, "\n" line ends, no form feeds, no spaces at line ends, at most one blank line in
// a row and none at either end.
std::string clean_page_text(std::string_view raw) {
  std::string text;
  utf8::append_sanitized(raw, text);
  std::string out;
  out.reserve(text.size());
  std::size_t blank_run = 0;
  for (std::size_t pos = 0; pos < text.size();) {
    std::size_t end = text.find_first_of("\r\n", pos);
    if (end == std::string::npos) end = text.size();
    std::string_view line(text.data() + pos, end - pos);
    pos = end + (text.compare(end, 2, "\r\n") == 0 ? 2 : 1);
    while (!line.empty() && (line.back() == ' ' || line.back() == '\t' || line.back() == '\f'))
      line.remove_suffix(1);
    if (line.find_first_not_of(" \t\f") == std::string_view::npos) {
      ++blank_run;
      continue;
    }
    if (!out.empty()) out += blank_run > 0 ? "\n\n" : "\n";
    blank_run = 0;
    for (char c : line)
      if (c != '\f') out += c;
  }
  return out;
}

// One line, control characters as spaces, at most 300 bytes.
std::string clean_title(std::string_view raw) {
  std::string t;
  utf8::append_sanitized(raw, t);
  for (char& c : t)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = ' ';
  const auto first = t.find_first_not_of(' ');
  if (first == std::string::npos) return {};
  t = t.substr(first, t.find_last_not_of(' ') - first + 1);
  if (t.size() > 300) t = t.substr(0, utf8::fit_bytes(t, 300)) + "\u2026";
  return t;
}

// The longest prefix of `text` within `room` bytes, ending on a line break when one lies in its
// second half, and never inside a UTF-8 sequence.
std::size_t cut_point(std::string_view text, std::size_t room) {
  if (text.size() <= room) return text.size();
  const std::size_t n = utf8::fit_bytes(text, room);
  const auto nl = text.rfind('\n', n);
  if (nl != std::string_view::npos && nl >= n / 2) return nl;
  return n;
}

std::variant<Selection, std::string> select_pages(const PdfOptions& o, int count) {
  Selection s;
  const std::size_t max_pages = std::max<std::size_t>(o.max_pages, 1);
  if (o.pages.find_first_not_of(" \t\r\n") == std::string::npos) {
    const auto n = static_cast<std::size_t>(count);
    // Short documents whole, longer ones from the start; never more than max_pages.
    const std::size_t take =
        std::min(n <= o.whole_document_pages ? n : std::min(n, max_pages), max_pages);
    for (std::size_t p = 1; p <= take; ++p) s.pages.push_back(static_cast<int>(p));
    if (take < n) {
      s.not_shown = static_cast<int>(take + 1);
      const std::size_t last = std::min(n, take + max_pages);
      s.next = std::to_string(take + 1) + (last > take + 1 ? "-" + std::to_string(last) : "");
    }
    return s;
  }
  auto parsed = parse_page_ranges(o.pages, count);
  if (auto* error = std::get_if<std::string>(&parsed)) return std::move(*error);
  s.pages = std::move(std::get<std::vector<int>>(parsed));
  if (s.pages.size() > max_pages) {
    const auto at = [&](std::size_t i) { return s.pages.begin() + static_cast<std::ptrdiff_t>(i); };
    const std::size_t second_end = std::min(s.pages.size(), 2 * max_pages);
    return o.wording.say({.pages = o.pages}, HintForm::arguments) + " asks for " + count_pages(s.pages.size()) +
           "; at most " +
           std::to_string(max_pages) + " per call \u2014 ask for " +
           format_page_ranges({at(0), at(max_pages)}) + ", then " +
           format_page_ranges({at(max_pages), at(second_end)}) +
           (second_end < s.pages.size() ? ", and so on." : ".");
  }
  return s;
}

// Where to go on after a default selection: "[Pages 21-300 not shown; call read with ...]".
std::string more_pages_note(const Selection& sel, int count, const PdfOptions& o, bool images) {
  const std::string left = sel.not_shown == count ? "Page " + std::to_string(count)
                                                  : "Pages " + std::to_string(sel.not_shown) +
                                                        "-" + std::to_string(count);
  Hint next{.pages = sel.next};
  if (images) next.as = FileKind::image;
  return "[" + left + " not shown; " + o.wording.say(next) + " to continue (at most " +
         std::to_string(std::max<std::size_t>(o.max_pages, 1)) + " pages per call).]";
}

}  // namespace mcpread::readers::pdf_pages
