#pragma once
// Whole elements cut out of a larger XML part (a page of a worksheet's rows, see row_index.hpp)
// parsed with pugixml and delivered to an XmlHandler as XmlStream delivers them: the same
// events for the same bytes (local names, xmlns attributes left out, entities and character
// references decoded, line ends normalized, CDATA as text), at several times libxml2's speed.
// pugixml processes no DTD and expands no entity but the five predefined ones; the walk does not
// recurse and refuses nesting past XmlStream::kMaxNesting. Internal to the readers library.
#include "package/zip_archive.hpp"
#include "sheets/xml_stream.hpp"

#include <pugixml.hpp>

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace mcpread::readers::sheets {

class XmlFragment {
 public:
  // Parses `bytes` and delivers their events to `handler` until `stopped()` says so; `depth` is
  // how deep the fragment lies in its part (a row of a worksheet: 2). False with a sentence in
  // *error (naming `part`) when the bytes are not well-formed or nest too deep. The bytes are
  // parsed in place: changed, and read by the handler until the next run.
  enum class Result { read, not_well_formed, too_deep };
  Result run(std::string& bytes, std::string_view part, std::size_t depth, XmlHandler& handler,
           const std::function<bool()>& stopped, std::string* error);

  // A whole part held in memory (the readers' cache), read as above when pugixml gives what
  // XmlStream would: UTF-8 without control characters or a DOCTYPE, one root element, well-formed.
  // Anything else is `not_well_formed` before any event, for XmlStream to read it and have the last
  // word. A read that needs nothing else from libxml2 then does not load it: its dlopen, with the
  // ICU and libstdc++ it brings, is most of a fresh server's first XLSX read (about 3 ms).
  // Larger parts are left to libxml2's stream: pugixml's tree takes about seven times the bytes
  // (a 2.9 MB shared-strings part: 21 MiB more at the peak), where loading libxml2 costs 2.7 MiB.
  static constexpr std::size_t kMaxWholePart = 256 * 1024;
  Result run_whole(std::string& bytes, std::string_view part, XmlHandler& handler, const std::function<bool()>& stopped,
                   std::string* error);

 private:
  Result walk(std::string_view part, std::size_t depth, XmlHandler& handler, const std::function<bool()>& stopped,
              std::string* error);
  pugi::xml_document doc_;
  XmlAttrs attrs_;
};

// UTF-8 unless a byte-order mark or the XML declaration says otherwise (pugixml is given UTF-8).
bool declares_utf8(std::string_view xml);

// Part `name` of `zip` through `handler` by pugixml, when the zip's cache holds it whole and it is
// at most XmlFragment::kMaxWholePart and usual (run_whole): true when read, false when it failed
// (*error says why). nullopt when it is for libxml2's stream to read (*error then empty).
std::optional<bool> read_held_part(package::ZipArchive& zip, const std::string& name, XmlHandler& handler,
                                   const std::function<bool()>& stopped, std::string* error);

}  // namespace mcpread::readers::sheets
