#pragma once
// The XML parts of zip packages (documents, presentations, e-books), read with pugixml: no DTD is
// processed, so no entity is ever expanded and no external entity fetched (an undeclared `&name;`
// stays as text), and the parser itself does not recurse. Elements and attributes are matched by local name, as the prefixes
// bound to a namespace are the writer's choice. Internal to the readers library.
#include <pugixml.hpp>

#include <string>
#include <string_view>

namespace mcpread::readers::package::xml {

// Elements deep in a part's XML at most: the readers walk parts recursively, within this bound.
inline constexpr int kMaxNesting = 100;

// Parses `bytes` into *doc, which takes them over (parsed in place: a part is not held twice);
// false with a sentence in *error ("... is not well-formed XML (...)", "... is nested more than
// 100 elements deep") naming `part`.
bool parse(std::string bytes, std::string_view part, pugi::xml_document* doc, std::string* error);

inline std::string_view local(std::string_view name) {
  const auto colon = name.find(':');
  return colon == std::string_view::npos ? name : name.substr(colon + 1);
}
inline std::string_view local(const pugi::xml_node& n) { return local(std::string_view(n.name())); }
inline bool is(const pugi::xml_node& n, std::string_view name) {
  return n.type() == pugi::node_element && local(n) == name;
}

// The attribute whose local name is `name` ("w:val" for "val"); empty when there is none.
inline std::string_view attr(const pugi::xml_node& n, std::string_view name) {
  for (pugi::xml_attribute a = n.first_attribute(); a; a = a.next_attribute())
    if (local(std::string_view(a.name())) == name) return a.value();
  return {};
}

// A small count or level written in an attribute ("3"): digits only, at most 6 of them, else
// `fallback` (writers put junk there, and sizes beyond that are never meant).
inline int small_int(std::string_view s, int fallback) {
  int v = 0;
  if (s.empty() || s.size() > 6) return fallback;
  for (char c : s) {
    if (c < '0' || c > '9') return fallback;
    v = v * 10 + (c - '0');
  }
  return v;
}

// The first child element whose local name is `name` (an empty node when none).
inline pugi::xml_node child(const pugi::xml_node& n, std::string_view name) {
  for (pugi::xml_node c = n.first_child(); c; c = c.next_sibling())
    if (is(c, name)) return c;
  return {};
}

// The first element under `n` (depth first, n excluded) whose local name is `name`.
pugi::xml_node descendant(const pugi::xml_node& n, std::string_view name);

}  // namespace mcpread::readers::package::xml
