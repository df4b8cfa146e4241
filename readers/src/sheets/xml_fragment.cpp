#include "sheets/xml_fragment.hpp"

#include "mcpread/common/ascii.hpp"
#include "mcpread/common/xml_declaration.hpp"
#include "mcpread/readers/utf8.hpp"

#include <array>
#include <cstdint>
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

// Whether `ref` starts with a character reference libxml2 accepts: "&#" then decimal digits, or
// "&#x" then hex digits, then ";", naming a character XML allows. pugixml takes others too (it
// decodes &#0; to a NUL, writes &#xD800; as bytes that are not UTF-8, leaves &#12 as text).
bool char_reference_allowed(std::string_view ref) {
  const bool hex = ref.size() > 3 && ref[2] == 'x';
  std::uint32_t value = 0;
  std::size_t i = hex ? 3 : 2, digits = 0;
  for (; i < ref.size() && digits <= 7; ++i, ++digits) {
    const char c = ref[i];
    int d = -1;
    if (c >= '0' && c <= '9') d = c - '0';
    else if (hex && c >= 'a' && c <= 'f') d = c - 'a' + 10;
    else if (hex && c >= 'A' && c <= 'F') d = c - 'A' + 10;
    if (d < 0) break;
    value = value * (hex ? 16 : 10) + static_cast<std::uint32_t>(d);
  }
  if (digits == 0 || digits > 7 || i >= ref.size() || ref[i] != ';') return false;
  return value == 0x9 || value == 0xA || value == 0xD || (value >= 0x20 && value <= 0xD7FF) ||
         (value >= 0xE000 && value <= 0xFFFD) || (value >= 0x10000 && value <= 0x10FFFF);
}

// pugixml leaves an undeclared entity (`&xxe;`) as text where libxml2 refuses the part: bytes
// holding one are not read here, so that libxml2 says so. '&' is rare in a sheet's rows.
bool entities_known(std::string_view bytes) {
  static constexpr std::string_view kKnown[] = {"&lt;", "&gt;", "&amp;", "&quot;", "&apos;"};
  for (std::size_t at = bytes.find('&'); at != std::string_view::npos; at = bytes.find('&', at + 1)) {
    const std::string_view rest = bytes.substr(at);
    if (rest.size() > 2 && rest[1] == '#') {  // a character reference: pugixml decodes those it can
      if (!char_reference_allowed(rest)) return false;
      continue;
    }
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

// Bytes XML 1.0 allows nowhere, which libxml2 refuses and pugixml passes on (C0 controls other
// than tab and line ends), or a DOCTYPE, which libxml2 refuses and pugixml skips.
bool has_what_libxml2_refuses(std::string_view bytes) {
  for (const char c : bytes)
    if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n' && c != '\r') return true;
  return bytes.find("<!DOCTYPE") != std::string_view::npos;
}

}  // namespace

bool declares_utf8(std::string_view xml) {
  if (xml.starts_with("\xEF\xBB\xBF")) xml.remove_prefix(3);
  if (xml.size() >= 2 && (xml[0] == '\0' || xml[1] == '\0' || static_cast<unsigned char>(xml[0]) >= 0xFE)) return false;
  const auto encoding = common::xml_declared_encoding(xml);
  return !encoding || common::ascii_iequals(*encoding, "utf-8") || common::ascii_iequals(*encoding, "utf8");
}

XmlFragment::Result XmlFragment::run_whole(std::string& bytes, std::string_view part, XmlHandler& handler,
                                           const std::function<bool()>& stopped, std::string* error) {
  const auto refused = [&](std::string_view why) {
    *error = "\"" + std::string(part) + "\" is left to libxml2 (" + std::string(why) + ")";
    return Result::not_well_formed;
  };
  if (bytes.size() > kMaxWholePart) return refused("larger than pugixml is given whole");
  if (!declares_utf8(bytes) || !utf8::is_valid(bytes) || has_what_libxml2_refuses(bytes))
    return refused("not plain UTF-8 XML");
  if (!entities_known(bytes)) return refused("an entity that is not declared");
  const pugi::xml_parse_result parsed = doc_.load_buffer_inplace(bytes.data(), bytes.size(), kFlags, pugi::encoding_utf8);
  if (!parsed) return refused(parsed.description());
  // parse_fragment takes text and several elements at the top, which a document may not hold. The
  // blanks around the root element are no character data to libxml2: dropped.
  int roots = 0;
  for (pugi::xml_node n = doc_.first_child(), next; n; n = next) {
    next = n.next_sibling();
    if (n.type() == pugi::node_element) ++roots;
    else if (n.type() == pugi::node_cdata) return refused("CDATA outside the root element");
    else if (n.type() == pugi::node_pcdata) {
      for (const char* c = n.value(); *c != '\0'; ++c)
        if (*c != ' ' && *c != '\t' && *c != '\n' && *c != '\r') return refused("text outside the root element");
      doc_.remove_child(n);
    }
  }
  if (roots != 1) return refused("not one root element");
  return walk(part, 0, handler, stopped, error);
}

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
  return walk(part, depth, handler, stopped, error);
}

XmlFragment::Result XmlFragment::walk(std::string_view part, std::size_t depth, XmlHandler& handler,
                                      const std::function<bool()>& stopped, std::string* error) {
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

std::optional<bool> read_held_part(package::ZipArchive& zip, const std::string& name, XmlHandler& handler,
                                   const std::function<bool()>& stopped, std::string* error) {
  const auto held = zip.held(name, error);
  if (held == nullptr) return error->empty() ? std::nullopt : std::optional<bool>(false);
  if (held->size() > XmlFragment::kMaxWholePart) return std::nullopt;
  std::string bytes(*held);  // parsed in place: the cache's copy stays for libxml2
  switch (XmlFragment().run_whole(bytes, name, handler, stopped, error)) {
    case XmlFragment::Result::read:
      return true;
    case XmlFragment::Result::too_deep:
      return false;
    case XmlFragment::Result::not_well_formed:
      break;  // refused before any event
  }
  error->clear();
  return std::nullopt;
}

}  // namespace mcpread::readers::sheets
