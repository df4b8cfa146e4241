#include "package/xml.hpp"

#include "mcpread/readers/utf8.hpp"

#include <algorithm>
#include <cstring>

namespace mcpread::readers::package::xml {

bool parse(std::string bytes, std::string_view part, pugi::xml_document* doc, std::string* error) {
  // The document owns a buffer from pugixml's allocator, parsed in place; the string goes first.
  const std::size_t size = bytes.size();
  void* buffer = pugi::get_memory_allocation_function()(std::max<std::size_t>(size, 1));
  if (buffer == nullptr) {
    *error = "\"" + std::string(part) + "\" does not fit in memory";
    return false;
  }
  if (size > 0) std::memcpy(buffer, bytes.data(), size);
  std::string().swap(bytes);
  // Whitespace-only text is kept: in a DOCX run or an ODF paragraph a lone space is a word break.
  const pugi::xml_parse_result r =
      doc->load_buffer_inplace_own(buffer, size, pugi::parse_default | pugi::parse_ws_pcdata, pugi::encoding_auto);
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

}  // namespace mcpread::readers::package::xml
