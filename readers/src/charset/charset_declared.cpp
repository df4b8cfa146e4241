// The charset a file says it is in, where the editors and interpreters that read it look:
// Vim's `scriptencoding` and `fileencoding=`/`fenc=` modelines, Emacs's `-*- coding: X -*-`,
// Python's PEP 263 cookie, the XML declaration and an HTML <meta> charset. Statistics cannot
// tell Latin-1 Icelandic from Latin-2 or Latin-10 in a short menu file; the file's own word can.
// A declaration is only a claim: detect_charset uses it only when it decodes the sample cleanly.
#include "charset_internal.hpp"
#include "mcpread/common/ascii.hpp"
#include "mcpread/common/xml_declaration.hpp"

#include <algorithm>
#include <cctype>

namespace mcpread::readers::charset_detail {
namespace {

constexpr std::size_t kScanBytes = 4096;    // declarations sit in the first lines
constexpr std::size_t kHtmlScanBytes = 1024;  // what the WHATWG prescan of a page looks at
constexpr std::size_t kModelines = 5;       // Vim's 'modelines' default

bool name_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '-' || c == '_' || c == '.';
}

std::string_view lower_ascii_copy(std::string_view s, std::string& storage) {
  storage = common::ascii_lower(s);
  return storage;
}

// The charset name at `pos` of `line` after optional blanks (and an optional quote), or empty.
std::string name_at(std::string_view line, std::size_t pos) {
  while (pos < line.size() && (line[pos] == ' ' || line[pos] == '\t')) ++pos;
  if (pos < line.size() && (line[pos] == '"' || line[pos] == '\'')) ++pos;
  std::size_t end = pos;
  while (end < line.size() && name_char(line[end])) ++end;
  return std::string(line.substr(pos, end - pos));
}

bool blank_before(std::string_view line, std::size_t pos) {
  return pos == 0 || line[pos - 1] == ' ' || line[pos - 1] == '\t';
}

// `:scriptencoding latin1`, which Vim also accepts shortened down to `:scripte latin1`.
std::string vim_scriptencoding(std::string_view line) {
  std::size_t i = line.find_first_not_of(" \t:");
  if (i == std::string_view::npos) return {};
  constexpr std::string_view kCommand = "scriptencoding";
  std::size_t k = 0;
  while (k < kCommand.size() && i + k < line.size() && line[i + k] == kCommand[k]) ++k;
  if (k < 7 || i + k >= line.size() || (line[i + k] != ' ' && line[i + k] != '\t')) return {};
  return name_at(line, i + k);
}

// `vim: set fileencoding=latin1 :`, `vi:fenc=utf-8`, `ex: ...`: the option after a modeline
// marker that starts the line or follows a blank.
std::string vim_modeline(std::string_view line) {
  for (std::string_view marker : {"vim:", "Vim:", "vi:", "ex:"}) {
    for (std::size_t at = line.find(marker); at != std::string_view::npos; at = line.find(marker, at + 1)) {
      if (!blank_before(line, at)) continue;
      const std::string_view options = line.substr(at + marker.size());
      for (std::string_view option : {"fileencoding=", "fenc="}) {
        for (std::size_t o = options.find(option); o != std::string_view::npos; o = options.find(option, o + 1)) {
          if (o > 0 && options[o - 1] != ' ' && options[o - 1] != '\t' && options[o - 1] != ':') continue;
          return name_at(options, o + option.size());
        }
      }
    }
  }
  return {};
}

// Emacs's first-line variables: `-*- coding: latin-1 -*-`, `-*- mode: c; coding: utf-8 -*-`.
// Emacs names carry an end-of-line suffix (`utf-8-unix`) and spell Latin-N `iso-latin-N`.
std::string emacs_coding(std::string_view line) {
  const std::size_t open = line.find("-*-");
  if (open == std::string_view::npos) return {};
  const std::size_t close = line.find("-*-", open + 3);
  if (close == std::string_view::npos) return {};
  const std::string_view vars = line.substr(open + 3, close - open - 3);
  std::string storage;
  const std::string_view low = lower_ascii_copy(vars, storage);
  std::size_t at = low.find("coding:");
  while (at != std::string_view::npos && at > 0 && name_char(low[at - 1])) at = low.find("coding:", at + 1);
  if (at == std::string_view::npos) return {};
  std::string name = name_at(vars, at + 7);
  for (std::string_view eol : {"-unix", "-dos", "-mac"})
    if (name.size() > eol.size() && name.ends_with(eol)) name.resize(name.size() - eol.size());
  if (name.starts_with("iso-latin-")) name = "latin" + name.substr(10);
  return name;
}

// PEP 263: a comment on line 1 or 2 matching `coding[:=]\s*([-\w.]+)`.
std::string python_cookie(std::string_view line) {
  const std::size_t hash = line.find_first_not_of(" \t\f");
  if (hash == std::string_view::npos || line[hash] != '#') return {};
  for (std::size_t at = line.find("coding", hash); at != std::string_view::npos; at = line.find("coding", at + 1)) {
    const std::size_t sep = at + 6;
    if (sep < line.size() && (line[sep] == ':' || line[sep] == '=')) {
      std::string name = name_at(line, sep + 1);
      if (!name.empty()) return name;
    }
  }
  return {};
}

// `<?xml version="1.0" encoding="ISO-8859-1"?>` at the very start.
std::string xml_declaration(std::string_view head) {
  return std::string(common::xml_declared_encoding(head).value_or(std::string_view()));
}

// `<meta charset="x">` or `<meta http-equiv="Content-Type" content="text/html; charset=x">` in
// the first 1024 bytes, as the WHATWG prescan finds them.
std::string html_meta(std::string_view head) {
  std::string storage;
  const std::string_view low = lower_ascii_copy(head.substr(0, kHtmlScanBytes), storage);
  for (std::size_t at = low.find("<meta"); at != std::string_view::npos; at = low.find("<meta", at + 1)) {
    const std::size_t end = low.find('>', at);
    const std::string_view tag = low.substr(at, end == std::string_view::npos ? end : end - at);
    const std::size_t cs = tag.find("charset");
    if (cs == std::string_view::npos) continue;
    std::size_t eq = cs + 7;
    while (eq < tag.size() && (tag[eq] == ' ' || tag[eq] == '\t')) ++eq;
    if (eq >= tag.size() || tag[eq] != '=') continue;
    std::string name = name_at(head.substr(at, tag.size()), eq + 1);
    if (!name.empty()) return name;
  }
  return {};
}

}  // namespace

std::string declared_charset(std::span<const unsigned char> sample) {
  const std::string_view head(reinterpret_cast<const char*>(sample.data()),
                              std::min(sample.size(), kScanBytes));
  if (std::string name = xml_declaration(head); !name.empty()) return name;
  if (std::string name = html_meta(head); !name.empty()) return name;
  std::size_t number = 0;
  std::size_t start = 0;
  while (start < head.size()) {
    std::size_t end = head.find('\n', start);
    // A line cut by the end of the scan could hold half a name: it is not read.
    if (end == std::string_view::npos) {
      if (head.size() < sample.size()) break;
      end = head.size();
    }
    std::string_view line = head.substr(start, end - start);
    if (line.ends_with('\r')) line.remove_suffix(1);
    ++number;
    // Emacs looks at line 1, or line 2 after a `#!` line; Python at lines 1 and 2.
    const bool first_lines = number == 1 || (number == 2 && head.starts_with("#!"));
    std::string name;
    if (first_lines) name = emacs_coding(line);
    if (name.empty() && number <= 2) name = python_cookie(line);
    if (name.empty() && number <= kModelines) name = vim_modeline(line);
    if (name.empty()) name = vim_scriptencoding(line);
    if (!name.empty()) return name;
    start = end + 1;
  }
  return {};
}

}  // namespace mcpread::readers::charset_detail
