#pragma once
// What presentations (PPTX, ODP) and e-books (EPUB) are read into: numbered sections (slides,
// chapters), each with a title, its text already Markdown-like, speaker notes and the package
// paths of its images; and how a selection of them becomes one answer: a marker per section, its
// images as image blocks after it, the `pages` selection, the output cap and the closing note.
// Internal to the readers library.
#include "mcpread/readers/cancel.hpp"
#include "mcpread/readers/hint.hpp"
#include "mcpread/readers/image.hpp"
#include "mcpread/readers/outcome.hpp"
#include "office/block_images.hpp"
#include "package/zip_archive.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace mcpread::readers::sections {

inline constexpr std::size_t kMaxSections = 10000;  // slides or chapters in one package

struct Section {
  std::string title;
  bool hidden = false;              // a slide left out of the slide show
  std::string text;                 // Markdown-like, lines and blank lines
  std::string notes;                // speaker notes
  std::vector<std::string> images;  // package paths, in order ("[Image N]" in the text)
};

struct Deck {
  std::string noun;        // "PowerPoint presentation", "EPUB book"
  std::string unit;        // "slide", "chapter"
  std::string preamble;    // lines after the header (an e-book's title and author)
  std::vector<Section> sections;
};

struct Options {
  std::string pages;                          // "3", "1-5", "2,4,7-9", "10-"; empty: from the first
  std::uint64_t offset = 1;                   // first line of the first section shown, 1-based
  std::size_t max_sections = 0;               // sections per answer at most (0: no limit)
  std::size_t max_output_bytes = 100 * 1024;  // cap on the text of one answer
  std::size_t max_images = 20;                // images sent per answer at most (0: none, markers stay)
  ImageLimits image;
  package::ZipLimits zip;
  Wording wording;  // how the notes say what to read next
};

// A title or label on one line: each run of whitespace one space, none at either end.
std::string one_line(std::string_view text);

// The answer for `deck`, its images' bytes read through `images_of` on the way. An error outcome for
// a selection that names no section.
ReadOutcome render(const Deck& deck, const office::PartReader& images_of, const std::string& path, const Options& options,
                   const CancelToken& cancel, nlohmann::json meta);
// The same for a deck read from `zip`, its images the package's parts.
ReadOutcome render(const Deck& deck, package::ZipArchive& zip, const std::string& path, const Options& options,
                   const CancelToken& cancel, nlohmann::json meta);

}  // namespace mcpread::readers::sections
