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
#include "paged_document.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace readers = mcpread::readers;
  std::string book(reinterpret_cast<const char*>(data), size);
  if (book.find("<FictionBook") == std::string::npos) book = "<FictionBook><body>" + book + "</body></FictionBook>";
  readers::office::OfficeOptions options;
  options.max_images = 2;
  mcpread::fuzz::check_paged_document(data, size, options, [&](const readers::office::OfficeOptions& o) {
    return readers::fb2::read_fb2_bytes(book, "fuzz.fb2", o, readers::CancelToken{});
  });
  return 0;
}
