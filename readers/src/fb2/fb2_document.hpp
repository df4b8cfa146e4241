#pragma once
// A FictionBook 2 e-book read into the office readers' Document: the title, authors, cover and
// annotation from its description, then each body's sections as headings by depth, paragraphs,
// subtitles, poems (a stanza a block, its verses on their own lines), citations and epigraphs as
// quotes, tables and images; the "notes" bodies become the footnotes their links point to.
// Internal to the readers library.
#include "office/document.hpp"

#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <string_view>

#include <pugixml.hpp>

namespace mcpread::readers::fb2 {

struct Binary {
  std::string content_type;  // "image/jpeg"
  std::string_view base64;   // into the parsed tree (Fb2Book::tree)
};

struct Fb2Book {
  std::unique_ptr<pugi::xml_document> tree;  // holds the binaries' text
  office::Document doc;
  std::string title;
  std::map<std::string, Binary> binaries;  // by id: the Document's blocks name images by it
  std::size_t images_missing = 0;          // image links to no <binary> (named in the text)
};

inline constexpr std::size_t kMaxDepth = 200;  // element nesting beyond this is refused

// Reads `xml` (UTF-8, the file's own charset already decoded).
// False with a sentence in *error: not XML, no <FictionBook> root, nested too deep, or a table
// of too many cells.
bool read_fb2(std::string_view xml, Fb2Book* out, std::string* error);

}  // namespace mcpread::readers::fb2
