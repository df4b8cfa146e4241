#pragma once
// The `read` tool's work, transport-free: resolve the path inside the roots, classify, and hand
// the file to the reader for its kind.
#include "mcpread/readers/access.hpp"
#include "mcpread/readers/cancel.hpp"
#include "mcpread/readers/classify.hpp"
#include "mcpread/readers/hint.hpp"
#include "mcpread/readers/image.hpp"
#include "mcpread/readers/ocr.hpp"
#include "mcpread/readers/outcome.hpp"
#include "mcpread/readers/pdf.hpp"
#include "mcpread/readers/text.hpp"

#include <functional>
#include <optional>
#include <string>

namespace mcpread::readers {

struct ReadRequest {
  std::string file_path;
  std::optional<std::uint64_t> offset;
  std::optional<std::uint64_t> limit;
  std::string pages;                     // PDF page selection
  std::optional<FileKind> forced_kind;   // file_type other than "auto"
  std::string encoding;
  // Text: each line from this character on (1-based); a column past 1 for anything else is refused.
  std::optional<std::uint64_t> column;
  // Told of progress through long reads (pages done, pages in all, message); may be empty.
  std::function<void(double, double, const std::string&)> progress;
  // OCR languages ("eng+deu"); empty: the configured list, else every installed language.
  std::string ocr_lang;
  // Read only what cannot wait: a regular plain-text file of 1 to `nowait` bytes whose every
  // page is in the page cache (reads with RWF_NOWAIT). Anything else, a FIFO, a device, a
  // directory, a larger file, another kind, a page not cached, comes back `deferred`, unread; a
  // refusal (outside the roots, missing) is answered. 0: read whatever it takes. For a transport
  // that answers quick reads on the thread that received them (two thread hand-offs are most of
  // a small text read's time) and must never block there.
  std::uint64_t nowait = 0;
  // How this read's hints name what to do next: the tool host's wording (its arguments), else
  // the readers' plain words.
  Wording wording;
};

// Archives (zip, tar and its compressed forms, 7z, rar, iso, cpio, cab): what one call may unpack,
// so that a bomb is refused instead of filling memory or holding the reader.
struct ArchiveLimits {
  std::uint64_t max_member_bytes = 64ull << 20;   // one member's bytes held in memory to be read
  std::uint64_t max_total_bytes = 1ull << 30;     // bytes unpacked in one pass over an archive
  std::uint64_t max_entries = 100'000;            // entries listed from one archive
  std::uint64_t max_ratio = 1000;                 // unpacked bytes per compressed byte read
  std::uint64_t max_depth = 3;                    // archives inside archives, the outer one 1
};

struct ReadLimits {
  TextOptions text;                       // defaults for the text path
  ImageLimits image;
  std::uint64_t audio_max_bytes = 20ull << 20;
  std::uint64_t pdf_max_pages = 20;              // pages per call
  std::uint64_t pdf_render_dpi = 120;            // file_type=image
  std::uint64_t pdf_max_blob_bytes = 20ull << 20;  // base64 of the subset PDF
  // How a PDF is read when the caller does not ask (file_type "auto" or "pdf"): the host decides
  // whether a PDF blob reaches its model.
  PdfMode pdf_default_mode = PdfMode::text_and_blob;
  std::size_t pdf_max_page_images = 4;             // text_and_page_images: pages rendered per call
  // Cap on the text of answers that may hold images (PDFs, notebooks); 0: text.max_output_bytes.
  std::size_t media_max_output_bytes = 0;
  std::size_t max_directory_entries = 1000;
  // DOCX and ODT: bytes unpacked from one document's zip at most (zip bombs are refused).
  std::uint64_t office_max_unpacked_bytes = 256ull << 20;
  // XLSX: bytes of the shared-strings table held in memory at most (it is needed whole).
  std::uint64_t sheet_max_shared_strings_bytes = 32ull << 20;
  ArchiveLimits archive;
  // OCR (ocr.hpp): when PDF pages are OCR'd, the languages used when the call names none (empty:
  // every installed one), pages OCR'd per call, the resolution pages are rendered at for it, and
  // the largest image (width x height) handed to it.
  OcrMode ocr_mode = OcrMode::automatic;
  std::string ocr_langs;
  std::uint64_t ocr_max_pages = 10;
  std::uint64_t ocr_dpi = 150;
  std::uint64_t ocr_max_pixels = 40'000'000;
};

// Cap on the text of an answer that may hold images (PDFs, notebooks).
std::size_t media_text_cap(const ReadLimits& limits);

ReadOutcome read_file(const Roots& roots, const ReadRequest& request, const ReadLimits& limits,
                      const CancelToken& cancel);

}  // namespace mcpread::readers
