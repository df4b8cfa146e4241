// fuzz_rtf: the RTF reader (rtf::read_rtf_bytes: its tokenizer, the document builder and the
// office renderer) on arbitrary input, which starts "{\rtf1 " when it does not already so that the
// builder always runs. Read twice: with the defaults, and with a tight cap, offset and limit
// picked from a hash of the input.
//
// Checked: every text block is valid UTF-8; an error is one text block; a successful answer ends
// with its paragraph range and names the paragraphs it shows within the document's count.
//
// Readers fuzzed: rtf.
#include "fuzz_check.hpp"
#include "reader_checks.hpp"
#include "rtf/rtf_reader.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace readers = mcpread::readers;
  using mcpread::fuzz::check;
  std::string rtf(reinterpret_cast<const char*>(data), size);
  if (!rtf.starts_with("{\\rtf")) rtf.insert(0, "{\\rtf1 ");
  readers::office::OfficeOptions options;
  options.max_images = 2;
  for (int pass = 0; pass < 2; ++pass) {
    if (pass == 1) {
      const std::uint32_t h = mcpread::fuzz::fnv1a(data, size);
      options.max_output_bytes = 512 + h % 4096;
      options.offset = 1 + (h >> 12) % 8;
      options.limit = 1 + (h >> 16) % 4;
    }
    const readers::ReadOutcome o = readers::rtf::read_rtf_bytes(rtf, "fuzz.rtf", options, readers::CancelToken{});
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
