// fuzz_ppt: the PowerPoint 97-2003 reader. An input starting with the OLE2 signature goes through
// ppt::read_ppt_bytes whole (libolecf's compound file, the streams, the deck, the sections engine);
// any other input is taken as the "PowerPoint Document" stream itself and read by ppt::read_ppt
// with a Current User atom naming an edit at an offset picked from a hash of the input, so that
// the record walker, the edit chain and the persist directory see arbitrary records.
//
// Checked: every text block (and every slide's text) is valid UTF-8; an error is one text block;
// an answer ends with its closing note; a refusal says why.
//
// Readers fuzzed: ppt.
#include "fuzz_check.hpp"
#include "ole2/ole2_file.hpp"
#include "ppt/ppt_deck.hpp"
#include "ppt/ppt_reader.hpp"
#include "reader_checks.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>

namespace {

std::string le32(std::uint32_t v) {
  std::string out;
  for (int i = 0; i < 4; ++i) out += static_cast<char>(v >> (8 * i) & 0xFF);
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace readers = mcpread::readers;
  using mcpread::fuzz::check;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  if (input.starts_with(readers::ole2::kSignature)) {
    readers::sections::Options options;
    options.max_sections = 3;
    const readers::ReadOutcome o = readers::ppt::read_ppt_bytes(input, "fuzz.ppt", options, readers::CancelToken{});
    if (!mcpread::fuzz::check_blocks(o)) return 0;
    const auto* last = std::get_if<readers::TextBlock>(&o.blocks.back());
    check(last != nullptr && last->text.ends_with("]"), "the answer ends with its closing note");
    return 0;
  }
  const std::uint32_t h = mcpread::fuzz::fnv1a(data, size);
  const std::string user = std::string("\0\0\xF6\x0F\x14\0\0\0", 8) + le32(20) + le32(0xE391C05F) +
                           le32(size == 0 ? 0 : h % static_cast<std::uint32_t>(size)) + std::string(12, '\0');
  readers::sections::Deck deck;
  std::string error;
  if (readers::ppt::read_ppt(input, user, &deck, &error)) {
    for (const auto& s : deck.sections) {
      check(readers::utf8::is_valid(s.title) && readers::utf8::is_valid(s.text) && readers::utf8::is_valid(s.notes),
            "a slide's text is valid UTF-8");
    }
  } else {
    check(!error.empty(), "a refusal says why");
  }
  return 0;
}
