#pragma once
// Text read out of pixels with Tesseract (libtesseract 5, loaded on first use): scanned PDF pages
// and images. Results are kept per (file, modification time, page, languages, resolution), so
// that reading the same page again costs nothing.
#include "mcpread/readers/cancel.hpp"

#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace mcpread::readers {

// When PDF pages are OCR'd: never; pages without usable text (default); every page.
enum class OcrMode { off, automatic, always };

// The languages one OCR runs with, and what the caller is told about the choice.
struct OcrLanguages {
  std::vector<std::string> used;  // installed and asked for (or every installed one)
  std::string note;               // names asked for without data, or nothing installed; else empty
  [[nodiscard]] std::string spec() const;  // "eng+deu", as Tesseract takes it
  [[nodiscard]] std::string list() const;  // "eng, deu", for people
};

// `requested` (the ocr_lang argument) or else `configured` (--ocr-lang), each a list such as
// "eng+deu" or "eng,deu"; when both are empty, every installed language.
OcrLanguages choose_ocr_languages(std::string_view requested, std::string_view configured);

// What a file's page is known by in the cache.
struct OcrKey {
  std::string file;  // the file's identity: device, inode, modification time, size
  int page = 0;  // 0 for an image file
  std::string langs;
  unsigned dpi = 0;
};

struct OcrPage {
  std::string text;      // lines in reading order, paragraphs apart; empty when none was found
  int confidence = 0;    // Tesseract's mean word confidence, 0-100
  bool blank = false;    // the image is one flat colour: not handed to Tesseract at all
  bool textured = false;  // no background to hold text (noise, grain): not handed either
  bool photograph = false;  // a photograph's spread of tones, or soft shading only: nor this
  // Characters Tesseract read below the confidence floor, left out of `text` as noise (0: none).
  std::size_t left_out_chars = 0;
  int rotated = 0;       // degrees (clockwise) the image was turned before reading, from OSD
  std::string note;      // e.g. a script the languages do not read; empty when none
  bool cached = false;   // from the cache: no OCR ran
};

struct OcrInput {
  std::string_view bytes;               // an encoded image Leptonica reads (PNG, JPEG, TIFF, ...)
  unsigned dpi = 0;                     // its resolution when known (rendered pages), else 0
  std::uint64_t max_pixels = 40'000'000;  // larger images are refused before decoding
  std::string subject;                  // "page 3", or the file's path: how errors name it
};

// The text of `in`, or a complete sentence saying why there is none (libtesseract missing, not
// an image Leptonica reads, too many pixels, cancelled). Cached under `key` when given.
std::variant<OcrPage, std::string> ocr_image(const OcrInput& in, const OcrLanguages& langs,
                                             const CancelToken& cancel, const OcrKey* key);

// Whether Tesseract's reading is text rather than noise: a mean confidence of 30 % or more, and
// of 70 % or more when it is under 40 characters (what a photograph or a drawing gives).
[[nodiscard]] bool legible_reading(std::string_view text, int confidence);

// Whether an encoded image (a page rendered small, about 512 px on its long edge) looks like a
// photograph rather than a page: checked before rendering a page for OCR, which on a photograph
// costs seconds and finds nothing. False when it cannot tell (no libtesseract, undecodable).
[[nodiscard]] bool looks_like_photograph(std::string_view image);

// The cached result for `key`, if any (so a caller can skip rendering the page).
std::optional<OcrPage> ocr_cached(const OcrKey& key);
// Forgets every cached result (tests, benchmarks).
void ocr_cache_clear();

// "[OCR, eng, mean confidence 91%]" and what the page's note adds.
std::string ocr_label(const OcrPage& page, const OcrLanguages& langs);

}  // namespace mcpread::readers
