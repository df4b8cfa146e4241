#include "office/xml.hpp"

#include "mcpread/readers/utf8.hpp"
#include "office/document.hpp"

namespace mcpread::readers::office::xml {

bool parse(std::string_view bytes, std::string_view part, pugi::xml_document* doc, std::string* error) {
  // Whitespace-only text is kept: in a DOCX run or an ODF paragraph a lone space is a word break.
  const pugi::xml_parse_result r =
      doc->load_buffer(bytes.data(), bytes.size(), pugi::parse_default | pugi::parse_ws_pcdata, pugi::encoding_auto);
  if (!r) {
    *error = "\"" + std::string(part) + "\" is not well-formed XML (" + utf8::sanitized(r.description()) +
             " at byte " + std::to_string(r.offset) + ")";
    return false;
  }
  // Depth, without recursion: the readers walk parts recursively, within this bound.
  int depth = 0;
  pugi::xml_node n = doc->first_child();
  while (n) {
    if (n.first_child()) {
      n = n.first_child();
      if (++depth > kMaxNesting) {
        *error = "\"" + std::string(part) + "\" is nested more than " + std::to_string(kMaxNesting) +
                 " elements deep";
        return false;
      }
      continue;
    }
    while (n && !n.next_sibling()) {
      n = n.parent();
      --depth;
      if (n == *doc) return true;
    }
    if (n) n = n.next_sibling();
  }
  return true;
}

pugi::xml_node descendant(const pugi::xml_node& n, std::string_view name) {
  return n.find_node([&](const pugi::xml_node& c) { return is(c, name); });
}

}  // namespace mcpread::readers::office::xml
