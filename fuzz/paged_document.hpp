#pragma once
// The document readers' fuzz targets (RTF, FictionBook, Word 97-2003): each input read twice, with
// the options given and then with a tight cap, offset and limit picked from a hash of the input,
// and each answer checked: its blocks (check_blocks), its closing note last, and the paragraphs it
// names within the document's count and in order.
#include "fuzz_check.hpp"
#include "office/reader.hpp"
#include "reader_checks.hpp"

#include <cstddef>
#include <cstdint>
#include <variant>

namespace mcpread::fuzz {

// `read(options)` gives the reader's outcome for the input with those options.
template <class Read>
void check_paged_document(const std::uint8_t* data, std::size_t size, readers::office::OfficeOptions options,
                          const Read& read) {
  for (int pass = 0; pass < 2; ++pass) {
    if (pass == 1) {
      const std::uint32_t h = fnv1a(data, size);
      options.max_output_bytes = 512 + h % 4096;
      options.offset = 1 + (h >> 12) % 8;
      options.limit = 1 + (h >> 16) % 4;
    }
    const readers::ReadOutcome o = read(options);
    if (!check_blocks(o)) continue;
    const auto* last = std::get_if<readers::TextBlock>(&o.blocks.back());
    check(last != nullptr && last->text.ends_with("]"), "the answer ends with its closing note");
    if (o.meta.contains("end_paragraph")) {
      check(o.meta["end_paragraph"].get<std::uint64_t>() <= o.meta["paragraphs"].get<std::uint64_t>(),
            "the paragraphs shown are within the document");
      check(o.meta["start_paragraph"].get<std::uint64_t>() <= o.meta["end_paragraph"].get<std::uint64_t>(),
            "the range shown is in order");
    }
  }
}

}  // namespace mcpread::fuzz
