#include "sheets/xml_fragment.hpp"

#include <array>
#include <cstring>

namespace mcpread::readers::sheets {
namespace {

// pugixml keeps names and values NUL-terminated, without their length: one pass finds both the
// end and the last colon (names are a few bytes: a call to strlen costs more than the loop).
std::string_view local_name(const char* name) {
  const char* local = name;
  const char* p = name;
  for (; *p != '\0'; ++p)
    if (*p == ':') local = p + 1;
  return {local, static_cast<std::size_t>(p - local)};
}

std::string_view view(const char* s) {
  const char* p = s;
  while (*p != '\0') ++p;
  return {s, static_cast<std::size_t>(p - s)};
}

// pugixml leaves an undeclared entity (`&xxe;`) as text where libxml2 refuses the part: bytes
// holding one are not read here, so that libxml2 says so. '&' is rare in a sheet's rows.
bool entities_known(std::string_view bytes) {
  static constexpr std::string_view kKnown[] = {"&lt;", "&gt;", "&amp;", "&quot;", "&apos;"};
  for (std::size_t at = bytes.find('&'); at != std::string_view::npos; at = bytes.find('&', at + 1)) {
    const std::string_view rest = bytes.substr(at);
    if (rest.size() > 2 && rest[1] == '#') continue;  // a character reference: pugixml decodes those
    bool known = false;
    for (const auto k : kKnown) known = known || rest.starts_with(k);
    if (!known) return false;
  }
  return true;
}

// What XmlStream's libxml2 gives: character data whitespace included (a `<t> </t>` is a space),
// CDATA, predefined entities and character references decoded, line ends and whitespace in
// attribute values normalized; comments and processing instructions dropped.
constexpr unsigned kFlags = pugi::parse_cdata | pugi::parse_escapes | pugi::parse_eol | pugi::parse_wconv_attribute |
                            pugi::parse_ws_pcdata | pugi::parse_fragment;

}  // namespace

XmlFragment::Result XmlFragment::run(std::string& bytes, std::string_view part, std::size_t depth, XmlHandler& handler,
                      const std::function<bool()>& stopped, std::string* error) {
  if (!entities_known(bytes)) {
    *error = "\"" + std::string(part) + "\" is not well-formed XML (an entity that is not declared)";
    return Result::not_well_formed;
  }
  const pugi::xml_parse_result parsed = doc_.load_buffer_inplace(bytes.data(), bytes.size(), kFlags, pugi::encoding_utf8);
  if (!parsed) {
    *error = "\"" + std::string(part) + "\" is not well-formed XML (" + parsed.description() + ")";
    return Result::not_well_formed;
  }
  // Depth first without recursion: down to the first child, else on to the next sibling, else
  // up (ending each element left) until an element has one. The open elements' local names are
  // kept (each pugixml accessor is a call into the library).
  std::array<std::string_view, XmlStream::kMaxNesting + 1> open;
  std::size_t level = 0;  // elements open in the fragment
  pugi::xml_node n = doc_.first_child();
  while (n) {
    const pugi::xml_node_type type = n.type();
    if (type == pugi::node_element) {
      if (depth + level + 1 > static_cast<std::size_t>(XmlStream::kMaxNesting)) {
        *error = "\"" + std::string(part) + "\" is nested more than " + std::to_string(XmlStream::kMaxNesting) +
                 " elements deep";
        return Result::too_deep;
      }
      attrs_.items.clear();
      for (pugi::xml_attribute a = n.first_attribute(); a; a = a.next_attribute()) {
        const char* name = a.name();
        if (name[0] == 'x' && std::string_view(name).starts_with("xmlns") && (name[5] == '\0' || name[5] == ':'))
          continue;  // namespace declarations, not attributes, to libxml2
        attrs_.items.emplace_back(local_name(name), view(a.value()));
      }
      const std::string_view local = local_name(n.name());
      handler.start(local, attrs_);
      if (stopped()) return Result::read;
      if (const pugi::xml_node down = n.first_child()) {
        open[level++] = local;
        n = down;
        continue;
      }
      handler.end(local);
    } else if (type == pugi::node_pcdata || type == pugi::node_cdata) {
      const std::string_view v = view(n.value());
      if (!v.empty()) handler.text(v);
    }
    if (stopped()) return Result::read;
    pugi::xml_node next = n.next_sibling();
    while (!next) {
      if (level == 0) return Result::read;
      n = n.parent();
      handler.end(open[--level]);
      if (stopped()) return Result::read;
      next = n.next_sibling();
    }
    n = next;
  }
  return Result::read;
}

}  // namespace mcpread::readers::sheets
