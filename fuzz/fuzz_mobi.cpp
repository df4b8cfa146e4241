// fuzz_mobi: the MOBI reader (mobi::read_mobi_bytes: libmobi's Palm database, record 0 and EXTH
// parsing, its decompressors and link reconstruction, the message the parse sends back, the
// chapters cut at page breaks, the HTML conversion, the sections engine) on arbitrary input. A
// first byte 0 takes the rest as a whole file; 1 puts the rest as the markup of a MOBI 6 book
// written here (tests/support/mobi_fixtures.hpp), with an image record; 2 the same as PalmDOC
// text. Each input is read twice: with the defaults, and with a small output cap, a selection
// and an offset picked from a hash of the input.
//
// Images are refused by a 1-byte input limit, so libvips never runs here.
//
// Checked: every text block is valid UTF-8; an error is one text block; the answer counts its
// chapters, and names next_pages when it stops before the end of the selection.
//
// Readers fuzzed: mobi.
#include "mobi/mobi_reader.hpp"
#include "mobi_fixtures.hpp"
#include "reader_checks.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace {

namespace readers = mcpread::readers;
using mcpread::fuzz::check;
using mcpread::fuzz::check_blocks;

void check_outcome(const readers::ReadOutcome& o) {
  if (!check_blocks(o)) return;
  check(o.meta.contains("chapters"), "the answer counts its chapters");
  if (o.meta.value("truncated", false)) check(o.meta.contains("next_pages"), "an answer stopped early says where to go on");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string_view rest(reinterpret_cast<const char*>(data + 1), size - 1);
  std::string book(rest);
  if (data[0] % 3 != 0) {
    mcpread::test::MobiFixture f;
    f.text = std::string(rest);
    f.images = {std::string("\x89PNG\r\n\x1a\n", 8)};
    f.palmdoc = data[0] % 3 == 2;
    book = mcpread::test::mobi_book(f);
  }
  readers::sections::Options options;
  options.image.max_input_bytes = 1;
  check_outcome(readers::mobi::read_mobi_bytes(book, "fuzz.mobi", options, readers::CancelToken{}));
  const std::uint32_t h = mcpread::fuzz::fnv1a(data, size);
  options.max_output_bytes = 600 + h % 4000;
  options.pages = std::to_string(1 + h % 3) + "-";
  options.offset = 1 + (h >> 8) % 5;
  options.max_sections = 1 + (h >> 16) % 3;
  check_outcome(readers::mobi::read_mobi_bytes(book, "fuzz.mobi", options, readers::CancelToken{}));
  return 0;
}
