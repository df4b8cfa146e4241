#pragma once
// Presentations and e-books built in the tests: the smallest PPTX, ODP and EPUB packages around
// given slides and chapters (zip_bytes of office_fixtures.hpp writes them).
#include "office_fixtures.hpp"

#include <string>
#include <vector>

namespace mcpread::test {

struct SlideSpec {
  std::string shapes = {};  // PPTX: the p:spTree's children; ODP: the draw:page's children
  std::string rels = {};    // PPTX: the slide's Relationship elements (images)
  std::string notes = {};   // the speaker notes' text, one paragraph; none when empty
  bool hidden = false;
};

// A PPTX of `slides` in order, with `extra` parts (media).
std::string pptx_bytes(const std::vector<SlideSpec>& slides, std::vector<ZipItem> extra = {});

// An ODP of `slides` in order, with `extra` parts (Pictures).
std::string odp_bytes(const std::vector<SlideSpec>& slides, std::vector<ZipItem> extra = {});

struct ChapterSpec {
  std::string file;   // "text/ch1.xhtml", under OEBPS/ ("../x": listed, not in the package)
  std::string body;   // the XHTML body's content
  std::string title;  // its entry in the nav document; none when empty
};

// An EPUB 3 titled `title` by `author` whose spine is `chapters`, with `extra` parts (images, a
// META-INF/encryption.xml).
std::string epub_bytes(const std::string& title, const std::string& author, const std::vector<ChapterSpec>& chapters,
                       std::vector<ZipItem> extra = {});

}  // namespace mcpread::test
