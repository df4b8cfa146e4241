// fuzz_rtf: the RTF reader (rtf::read_rtf_bytes: its tokenizer, the document builder and the
// office renderer) on arbitrary input, which starts "{\rtf1 " when it does not already so that the
// builder always runs. Read twice: with the defaults, and with a tight cap, offset and limit
// picked from a hash of the input.
//
// Checked: every text block is valid UTF-8; an error is one text block; a successful answer ends
// with its paragraph range and names the paragraphs it shows within the document's count.
//
// Readers fuzzed: rtf.
#include "paged_document.hpp"
#include "rtf/rtf_reader.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace readers = mcpread::readers;
  std::string rtf(reinterpret_cast<const char*>(data), size);
  if (!rtf.starts_with("{\\rtf")) rtf.insert(0, "{\\rtf1 ");
  readers::office::OfficeOptions options;
  options.max_images = 2;
  mcpread::fuzz::check_paged_document(data, size, options, [&](const readers::office::OfficeOptions& o) {
    return readers::rtf::read_rtf_bytes(rtf, "fuzz.rtf", o, readers::CancelToken{});
  });
  return 0;
}
