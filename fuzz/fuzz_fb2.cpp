// fuzz_fb2: the FictionBook reader (fb2::read_fb2_bytes: charset detection and decoding, the XML
// parse, the document builder with its notes, poems, quotes, tables and binaries, and the office
// renderer) on arbitrary input, put inside "<FictionBook><body>" when it holds no root of that name
// so that the builder always runs. Read twice: with the defaults, and with a tight cap, offset and
// limit picked from a hash of the input.
//
// Checked: every text block is valid UTF-8; an error is one text block; a successful answer ends
// with its paragraph range and names the paragraphs it shows within the document's count.
//
// Readers fuzzed: fb2.
#include "fb2/fb2_reader.hpp"
#include "fuzz_check.hpp"
#include "reader_checks.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace readers = mcpread::readers;
  using mcpread::fuzz::check;
  std::string book(reinterpret_cast<const char*>(data), size);
  if (book.find("<FictionBook") == std::string::npos) book = "<FictionBook><body>" + book + "</body></FictionBook>";
  readers::office::OfficeOptions options;
  options.max_images = 2;
  for (int pass = 0; pass < 2; ++pass) {
    if (pass == 1) {
      const std::uint32_t h = mcpread::fuzz::fnv1a(data, size);
      options.max_output_bytes = 512 + h % 4096;
      options.offset = 1 + (h >> 12) % 8;
      options.limit = 1 + (h >> 16) % 4;
    }
    const readers::ReadOutcome o = readers::fb2::read_fb2_bytes(book, "fuzz.fb2", options, readers::CancelToken{});
    if (!mcpread::fuzz::check_blocks(o)) continue;
    const auto* last = std::get_if<readers::TextBlock>(&o.blocks.back());
    check(last != nullptr && last->text.ends_with("]"), "the answer ends with its closing note");
    if (o.meta.contains("end_paragraph")) {
      check(o.meta["end_paragraph"].get<std::uint64_t>() <= o.meta["paragraphs"].get<std::uint64_t>(),
            "the paragraphs shown are within the document");
      check(o.meta["start_paragraph"].get<std::uint64_t>() <= o.meta["end_paragraph"].get<std::uint64_t>(),
            "the range shown is in order");
    }
  }
  return 0;
}
