#pragma once
// What html_text.cpp and html_table.cpp share: libxml2's tree read without recursion, and the
// element classes that shape the text. Internal to the readers library.
#include <libxml/tree.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <string>
#include <string_view>

namespace mcpread::readers::html_text::dom {

inline std::string_view name_of(const xmlNode* n) {
  return n->name != nullptr ? std::string_view(reinterpret_cast<const char*>(n->name)) : std::string_view();
}
inline std::string_view content_of(const xmlNode* n) {
  return n->content != nullptr ? std::string_view(reinterpret_cast<const char*>(n->content)) : std::string_view();
}
inline bool is_element(const xmlNode* n, std::string_view name) {
  return n->type == XML_ELEMENT_NODE && name_of(n) == name;
}

template <std::size_t N>
inline bool one_of(std::string_view name, const std::array<std::string_view, N>& names) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

// Never shown: code, styling, metadata, embedded drawings.
inline constexpr auto kSkipped = std::to_array<std::string_view>({"script", "style", "head", "title", "template",
                                                      "svg", "iframe", "object"});
// Set apart by a blank line.
inline constexpr auto kParagraphs = std::to_array<std::string_view>({
    "p", "blockquote", "figure", "section", "article", "header", "footer", "details",
    "address", "fieldset", "form", "main", "nav", "aside", "dl", "caption"});
// On lines of their own.
inline constexpr auto kLines = std::to_array<std::string_view>({"div", "tr", "dt", "dd", "summary", "figcaption",
                                                   "option", "legend", "center"});

// Inside a word's flow: their ends are no word breaks.
inline constexpr auto kInline = std::to_array<std::string_view>({"a", "b", "i", "em", "strong", "span", "code",
                                                     "sub", "sup", "small", "u", "s", "abbr", "mark",
                                                     "font", "tt", "kbd", "var", "q", "label"});

// Whitespace as HTML collapses it, with no-break spaces read as spaces (they only keep words
// together on a screen).
inline void append_collapsed(std::string_view text, std::string& out, bool& pending_space) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    const bool nbsp = c == '\xC2' && i + 1 < text.size() && text[i + 1] == '\xA0';
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || nbsp) {
      pending_space = true;
      i += nbsp ? 1 : 0;
      continue;
    }
    if (pending_space && !out.empty() && out.back() != '\n' && out.back() != ' ' && out.back() != '\t') out += ' ';
    pending_space = false;
    out += c;
  }
}

// Visits the nodes under `root` (itself included) in document order without recursion (HTML
// nesting has no limit): enter(n) says whether to go into n's children; leave(n) follows the
// last of them, for each node entered.
template <class Enter, class Leave>
inline void walk(xmlNode* root, Enter enter, Leave leave) {
  xmlNode* n = root;
  for (;;) {
    const bool descend = enter(n);
    if (descend && n->children != nullptr) {
      n = n->children;
      continue;
    }
    if (descend) leave(n);
    while (n != root && n->next == nullptr) {
      n = n->parent;
      leave(n);
    }
    if (n == root) return;
    n = n->next;
  }
}

// The <table> appended to `out` as a Markdown table; false (nothing written) when it has no cell.
bool render_table(xmlNode* table, std::string& out);
// A cell's (or caption's) text on one line.
std::string inline_text(xmlNode* node);

}  // namespace mcpread::readers::html_text::dom
