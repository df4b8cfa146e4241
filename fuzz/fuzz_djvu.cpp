// fuzz_djvu: the DjVu reader (djvu::read_djvu: djvulibre's parse of a whole file fed from memory,
// in a child process per read as in the server, and the child's message back; the hidden text's
// zones walked into lines, the metadata, the answer's pages and notes) on arbitrary input. Read
// twice: with the defaults, and with a `pages` selection and a tight cap picked from a hash of
// the input. OCR is off (Tesseract is not what this target fuzzes) and no page is rendered.
//
// Checked: every text block is valid UTF-8; an error is one text block; a successful answer
// starts with its header and lists pages within the document's count.
//
// Readers fuzzed: djvu.
#include "djvu/djvu_reader.hpp"
#include "input_file.hpp"
#include "mcpread/readers/caches.hpp"
#include "reader_checks.hpp"

#include <cstddef>
#include <cstdint>
#include <string>

namespace {

void check_answer(const mcpread::readers::ReadOutcome& o) {
  using mcpread::fuzz::check;
  if (!mcpread::fuzz::check_blocks(o)) return;
  const auto* head = std::get_if<mcpread::readers::TextBlock>(&o.blocks.front());
  check(head != nullptr && head->text.starts_with("DjVu document "), "an answer starts with its header");
  const int pages = o.meta.value("pages", 0);
  check(pages > 0, "a document read has pages");
  for (const auto& k : o.meta.value("selected", nlohmann::json::array()))
    check(k.get<int>() >= 1 && k.get<int>() <= pages, "the pages shown are the document's");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace readers = mcpread::readers;
  const readers::OpenedFile file = mcpread::fuzz::open_input(data, size, "/fuzz/input.djvu");
  readers::PdfOptions options;
  options.mode = readers::PdfMode::text;
  options.ocr = readers::OcrMode::off;
  check_answer(readers::djvu::read_djvu(file, options, readers::CancelToken{}));
  const std::uint32_t h = mcpread::fuzz::fnv1a(data, size);
  options.pages = std::to_string(h % 4 + 1) + "-" + std::to_string(h % 4 + 1 + (h >> 8) % 3);
  options.max_output_bytes = 600 + (h >> 12) % 2000;
  check_answer(readers::djvu::read_djvu(file, options, readers::CancelToken{}));
  readers::release_caches();  // each input read afresh: the memfd keeps one identity
  return 0;
}
