// fuzz_office: the DOCX and ODT readers on arbitrary input. The first byte picks what the rest
// is: 0 a whole DOCX package, 1 a whole ODT package (zip-level mutations: libzip's parsing, the
// entry limits, the ../ check), 2 the word/document.xml and 3 the content.xml of a package built
// here around it, stored uncompressed (XML-level mutations: the builders, nesting, entities,
// tables, notes, lists). Each input is read twice: with the defaults, and with a small output cap
// and an offset/limit picked from a hash of the input.
//
// Images are refused by a 1-byte input limit, so libvips never runs here: its decoders are not
// ours to fuzz.
//
// Checked: every text block is valid UTF-8; an error is one text block; the paragraphs shown are
// a range inside the document, with next_offset when more remain.
//
// Readers fuzzed: docx, odt.
#include "fuzz_check.hpp"
#include "reader_checks.hpp"
#include "stored_zip.hpp"
#include "mcpread/readers/utf8.hpp"
#include "office/reader.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace {

using mcpread::fuzz::check;
using mcpread::fuzz::check_blocks;
using mcpread::fuzz::fnv1a;
using mcpread::fuzz::stored_zip;
namespace readers = mcpread::readers;
namespace office = mcpread::readers::office;

void check_outcome(const readers::ReadOutcome& o) {
  if (!check_blocks(o)) return;
  const auto paragraphs = o.meta.at("paragraphs").get<std::uint64_t>();
  if (paragraphs == 0) return;
  const auto start = o.meta.at("start_paragraph").get<std::uint64_t>();
  const auto end = o.meta.at("end_paragraph").get<std::uint64_t>();
  check(start >= 1 && start <= end && end <= paragraphs, "the paragraphs shown lie inside the document");
  check(o.meta.contains("next_offset") == (end < paragraphs), "next_offset is given when paragraphs remain");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string_view rest(reinterpret_cast<const char*>(data + 1), size - 1);
  const unsigned mode = data[0] % 4;
  std::string package;
  if (mode == 2)
    package = stored_zip({{"[Content_Types].xml", "<Types/>"},
                          {"word/document.xml", rest},
                          {"word/_rels/document.xml.rels",
                           "<Relationships><Relationship Id=\"rId1\" Type=\"x/image\" Target=\"media/a.png\"/>"
                           "<Relationship Id=\"rId2\" Type=\"x/hyperlink\" Target=\"http://x\" TargetMode=\"External\"/>"
                           "</Relationships>"},
                          {"word/media/a.png", "\x89PNG"}});
  else if (mode == 3)
    package = stored_zip({{"mimetype", "application/vnd.oasis.opendocument.text"},
                          {"content.xml", rest},
                          {"Pictures/a.png", "\x89PNG"}});
  const std::string_view bytes = mode < 2 ? rest : std::string_view(package);
  const office::Format format = mode % 2 == 0 ? office::Format::docx : office::Format::odt;

  const std::uint32_t h = fnv1a(data, size);
  const readers::CancelToken never;
  office::OfficeOptions defaults;
  defaults.image.max_input_bytes = 1;
  check_outcome(office::read_office_bytes(bytes, "/fuzz/document", format, defaults, never));
  office::OfficeOptions tight = defaults;
  tight.max_output_bytes = std::size_t{700} << (h & 3);
  tight.offset = 1 + (h >> 2) % 3;
  if ((h >> 4) % 3 != 0) tight.limit = (h >> 4) % 3;
  tight.max_images = (h >> 6) % 2;
  check_outcome(office::read_office_bytes(bytes, "/fuzz/document", format, tight, never));
  return 0;
}
