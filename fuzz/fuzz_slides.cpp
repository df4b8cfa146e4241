// fuzz_slides: the PPTX, ODP and EPUB readers on arbitrary input. The first byte picks what the
// rest is: 0-2 a whole PPTX, ODP or EPUB package (zip-level mutations: libzip's parsing, the entry
// limits, the ../ check); 3 a slide's XML, 4 an ODP's content.xml, 5 an EPUB's package document
// and 6 an EPUB chapter, each inside a package built here around it (XML-level mutations: shapes,
// tables, lists, notes, the spine, rels and hrefs out of the package, the HTML conversion). Each
// input is read twice: with the defaults, and with a small output cap, a selection and an offset
// picked from a hash of the input.
//
// Images are refused by a 1-byte input limit, so libvips never runs here.
//
// Checked: every text block is valid UTF-8; an error is one text block; the answer names how many
// sections it has, and next_pages when it stops before the end of the selection.
//
// Readers fuzzed: pptx, odp, epub.
#include "fuzz_check.hpp"
#include "reader_checks.hpp"
#include "mcpread/readers/utf8.hpp"
#include "epub/epub.hpp"
#include "slides/slides.hpp"
#include "stored_zip.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>

namespace {

using mcpread::fuzz::check;
using mcpread::fuzz::check_blocks;
using mcpread::fuzz::fnv1a;
using mcpread::fuzz::stored_zip;
namespace readers = mcpread::readers;
namespace sections = mcpread::readers::sections;

constexpr std::string_view kPresentation =
    "<p:presentation xmlns:p=\"p\" xmlns:r=\"r\"><p:sldIdLst><p:sldId id=\"256\" r:id=\"rId1\"/>"
    "<p:sldId id=\"257\" r:id=\"rId2\"/></p:sldIdLst></p:presentation>";
constexpr std::string_view kPresentationRels =
    "<Relationships><Relationship Id=\"rId1\" Type=\"x/slide\" Target=\"slides/slide1.xml\"/>"
    "<Relationship Id=\"rId2\" Type=\"x/slide\" Target=\"../../slides/slide2.xml\"/></Relationships>";
constexpr std::string_view kSlideRels =
    "<Relationships><Relationship Id=\"rId1\" Type=\"x/image\" Target=\"../media/a.png\"/>"
    "<Relationship Id=\"rId2\" Type=\"x/notesSlide\" Target=\"../notesSlides/n1.xml\"/></Relationships>";
constexpr std::string_view kContainer =
    "<container><rootfiles><rootfile full-path=\"OEBPS/book.opf\"/></rootfiles></container>";
constexpr std::string_view kOpf =
    "<package><metadata><title>T</title><creator>A</creator></metadata><manifest>"
    "<item id=\"c1\" href=\"c1.xhtml\"/><item id=\"c2\" href=\"../c2.xhtml\"/><item id=\"nav\" href=\"nav.xhtml\" "
    "properties=\"nav\"/></manifest><spine><itemref idref=\"c1\"/><itemref idref=\"c1\"/><itemref idref=\"x\"/></spine></package>";
constexpr std::string_view kNav = "<html><body><nav type=\"toc\"><ol><li><a href=\"c1.xhtml#x\">One</a></li></ol></nav></body></html>";

void check_outcome(const readers::ReadOutcome& o) {
  if (!check_blocks(o)) return;
  check(o.meta.contains("slides") || o.meta.contains("chapters"), "the answer counts its sections");
  if (o.meta.value("truncated", false))
    check(o.meta.contains("next_pages"), "an answer stopped early says where to go on");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string_view rest(reinterpret_cast<const char*>(data + 1), size - 1);
  const unsigned mode = data[0] % 7;
  std::string package;
  const sections::DeckFormat* format = mode % 3 == 0   ? &readers::slides::kPptx
                                       : mode % 3 == 1 ? &readers::slides::kOdp
                                                       : &readers::epub::kEpub;
  if (mode == 3) {
    format = &readers::slides::kPptx;
    package = stored_zip({{"ppt/presentation.xml", kPresentation},
                          {"ppt/_rels/presentation.xml.rels", kPresentationRels},
                          {"ppt/slides/slide1.xml", rest},
                          {"ppt/slides/_rels/slide1.xml.rels", kSlideRels},
                          {"ppt/notesSlides/n1.xml", rest},
                          {"ppt/media/a.png", "\x89PNG"}});
  } else if (mode == 4) {
    format = &readers::slides::kOdp;
    package = stored_zip({{"mimetype", "application/vnd.oasis.opendocument.presentation"},
                          {"content.xml", rest},
                          {"Pictures/a.png", "\x89PNG"}});
  } else if (mode == 5 || mode == 6) {
    format = &readers::epub::kEpub;
    package = stored_zip({{"mimetype", "application/epub+zip"},
                          {"META-INF/container.xml", kContainer},
                          {"OEBPS/book.opf", mode == 5 ? rest : kOpf},
                          {"OEBPS/nav.xhtml", kNav},
                          {"OEBPS/c1.xhtml", mode == 6 ? rest : std::string_view("<p>x<img src=\"a.png\"/></p>")},
                          {"OEBPS/a.png", "\x89PNG"}});
  }
  const std::string_view bytes = mode < 3 ? rest : std::string_view(package);

  const std::uint32_t h = fnv1a(data, size);
  const readers::CancelToken never;
  sections::Options defaults;
  defaults.image.max_input_bytes = 1;
  check_outcome(sections::read_bytes(bytes, "/fuzz/deck", *format, defaults, never));
  sections::Options tight = defaults;
  tight.max_output_bytes = std::size_t{700} << (h & 3);
  tight.offset = 1 + (h >> 2) % 3;
  static constexpr const char* kPages[] = {"", "1", "2-", "1,3", "0", "x"};
  tight.pages = kPages[(h >> 4) % 6];
  tight.max_sections = (h >> 7) % 3;
  tight.max_images = (h >> 9) % 2;
  check_outcome(sections::read_bytes(bytes, "/fuzz/deck", *format, tight, never));
  return 0;
}
