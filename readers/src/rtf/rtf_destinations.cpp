#include "rtf/rtf_destinations.hpp"

#include "mcpread/common/ascii.hpp"

#include <array>
#include <utility>

namespace mcpread::readers::rtf {

Dest destination_of(std::string_view word, bool ignorable) {
  static constexpr std::array<std::pair<std::string_view, Dest>, 12> kRead = {{
      {"fonttbl", Dest::fonts},          {"stylesheet", Dest::styles},  {"footnote", Dest::footnote},
      {"field", Dest::field},            {"fldinst", Dest::field_instruction},
      {"fldrslt", Dest::field_result},   {"pict", Dest::picture},       {"listtext", Dest::marker},
      {"pntext", Dest::marker},          {"shppict", Dest::transparent}, {"object", Dest::transparent},
      {"result", Dest::transparent},
  }};
  for (const auto& [name, dest] : kRead)
    if (word == name) return dest;
  // Destinations of the specification that hold no text of the document (or hold it twice, as
  // \nonshppict's copy of a picture and \upr's ANSI copy of names), skipped even without "\*".
  static constexpr std::array<std::string_view, 32> kSkipped = {
      "colortbl",  "info",      "header",    "headerl",   "headerr",    "headerf",   "footer",    "footerl",
      "footerr",   "footerf",   "filetbl",   "listtable", "listoverridetable", "revtbl", "rsidtbl", "pn",
      "nonshppict", "upr",      "xmlnstbl",  "themedata", "colorschememapping", "datastore", "latentstyles",
      "pgdsctbl",  "objdata",   "bkmkstart", "bkmkend",   "annotation", "atnid",   "atnauthor", "atndate",
      "private"};
  for (const std::string_view name : kSkipped)
    if (word == name) return Dest::skip;
  return ignorable ? Dest::skip : Dest::none;
}

char32_t special_character(std::string_view word) {
  static constexpr std::array<std::pair<std::string_view, char32_t>, 14> kCharacters = {{
      {"emdash", 0x2014},   {"endash", 0x2013},   {"bullet", 0x2022},  {"lquote", 0x2018},
      {"rquote", 0x2019},   {"ldblquote", 0x201C}, {"rdblquote", 0x201D}, {"emspace", 0x2003},
      {"enspace", 0x2002},  {"qmspace", 0x2005},  {"zwj", 0x200D},     {"zwnj", 0x200C},
      {"ltrmark", 0x200E},  {"rtlmark", 0x200F},
  }};
  for (const auto& [name, c] : kCharacters)
    if (word == name) return c;
  return 0;
}

int heading_level_of_style(std::string_view name) {
  const std::string lower = common::ascii_lower(name);
  if (lower == "title") return 1;
  if (lower.size() == 9 && lower.starts_with("heading ") && lower[8] >= '1' && lower[8] <= '6') return lower[8] - '0';
  return 0;
}

std::string hyperlink_target(std::string_view instruction) {
  while (!instruction.empty() && instruction.front() == ' ') instruction.remove_prefix(1);
  if (instruction.size() < 9 || common::ascii_lower(instruction.substr(0, 9)) != "hyperlink") return {};
  instruction.remove_prefix(9);
  bool anchor = false;
  for (;;) {
    while (!instruction.empty() && instruction.front() == ' ') instruction.remove_prefix(1);
    if (instruction.starts_with("\\l")) {
      anchor = true;
      instruction.remove_prefix(2);
    } else if (instruction.starts_with("\\") && instruction.size() >= 2) {
      instruction.remove_prefix(2);  // another switch (\o "tip", \t "frame") and its argument
      while (!instruction.empty() && instruction.front() == ' ') instruction.remove_prefix(1);
      if (instruction.starts_with('"')) {
        const std::size_t end = instruction.find('"', 1);
        instruction.remove_prefix(end == std::string_view::npos ? instruction.size() : end + 1);
      }
    } else {
      break;
    }
  }
  std::string_view target;
  if (instruction.starts_with('"')) {
    const std::size_t end = instruction.find('"', 1);
    target = instruction.substr(1, end == std::string_view::npos ? std::string_view::npos : end - 1);
  } else {
    target = instruction.substr(0, instruction.find(' '));
  }
  if (target.empty() || target.find_first_of("()<> \n") != std::string_view::npos) return {};
  return anchor ? "#" + std::string(target) : std::string(target);
}

std::size_t ordinal(std::string_view marker) {
  std::size_t n = 0, digits = 0;
  while (digits < marker.size() && marker[digits] >= '0' && marker[digits] <= '9' && digits < 9)
    n = n * 10 + static_cast<std::size_t>(marker[digits++] - '0');
  if (digits == 0 || digits >= marker.size()) return 0;
  return marker[digits] == '.' || marker[digits] == ')' ? n : 0;
}

}  // namespace mcpread::readers::rtf
