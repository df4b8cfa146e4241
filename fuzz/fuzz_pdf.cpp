// fuzz_pdf: the PDF reader on arbitrary file contents, through its plugin (poppler and qpdf
// behind the plugin's C interface, loaded as the server loads it): the document opened and
// cached, the pages selected, each page's text and its checks for lost text, and the PDF of the
// selected pages built with qpdf. Each input is read with the defaults and with a selection
// and a cap picked from a hash of the input. No OCR and no rendering (libvips and tesseract are
// the libraries' own work, and slow per input).
//
// Checked: every text block is valid UTF-8; an error is one text block; the pages selected lie
// inside the document, and the text stays within the cap.
//
// Readers fuzzed: pdf.
#include "fuzz_check.hpp"
#include "input_file.hpp"
#include "mcpread/readers/caches.hpp"
#include "mcpread/readers/pdf.hpp"
#include "reader_checks.hpp"


#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <variant>

namespace {

using mcpread::fuzz::check;
using mcpread::fuzz::check_blocks;
namespace readers = mcpread::readers;

void read(const readers::OpenedFile& file, const readers::PdfOptions& options) {
  const readers::ReadOutcome o = readers::read_pdf(file, options, readers::CancelToken{});
  if (!check_blocks(o)) return;
  const auto pages = o.meta.at("pages").get<std::uint64_t>();  // 0: "It has no pages."
  for (const auto& p : o.meta.at("selected")) check(p.get<std::uint64_t>() >= 1 && p.get<std::uint64_t>() <= pages, "the pages selected lie inside it");
  const auto& first = std::get<readers::TextBlock>(o.blocks.front()).text;
  check(first.size() <= options.max_output_bytes + 4096, "the text stays within the cap");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const bool plugin_found = setenv("MCP_READ_PDF_PLUGIN_DIR", MCPREAD_FUZZ_PDF_PLUGIN_DIR, 1) == 0;
  check(plugin_found, "the plugin's directory is set");
  const readers::OpenedFile file = mcpread::fuzz::open_input(data, size, "/fuzz/input.pdf");
  readers::release_caches();  // each input is opened afresh

  readers::PdfOptions defaults;
  read(file, defaults);
  const std::uint32_t h = mcpread::fuzz::fnv1a(data, size);
  readers::PdfOptions tight;
  tight.mode = (h & 1) != 0 ? readers::PdfMode::text : readers::PdfMode::text_and_blob;
  tight.pages = std::to_string(1 + (h >> 4) % 3) + "-";
  tight.max_pages = 1 + (h >> 8) % 4;
  tight.max_output_bytes = 2048 + (h >> 12) % 8192;
  read(file, tight);
  return 0;
}
