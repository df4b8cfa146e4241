// The presentation readers (PowerPoint and OpenDocument) and the e-book reader (EPUB): one
// section per slide or chapter, with its title, text, notes and images; `pages` selects them.
// Each also serves file_type="text" (the same text, without the images).
#include "mcpread/readers/registry.hpp"
#include "resource_contents.hpp"
#include "slides/readers.hpp"

#include <algorithm>

namespace mcpread::readers {

inline constexpr FileKind kPptxKind{"pptx"};
inline constexpr FileKind kOdpKind{"odp"};
inline constexpr FileKind kEpubKind{"epub"};

namespace {

constexpr std::size_t kSlidesPerCall = 50;  // a slide is short: the output cap stops long decks first

sections::Options options_for(const ReadLimits& limits, std::size_t cap) {
  sections::Options options;
  options.max_output_bytes = cap;
  options.image = limits.image;
  options.zip.max_total_bytes = limits.office_max_unpacked_bytes;
  options.zip.max_entry_bytes = std::min(options.zip.max_entry_bytes, limits.office_max_unpacked_bytes);
  return options;
}

template <sections::Format F>
ReadOutcome read_as(const ReaderCall& call) {
  sections::Options options = options_for(call.limits, media_text_cap(call.limits));
  options.pages = call.request.pages;
  if (call.request.offset) options.offset = *call.request.offset;
  if (F != sections::Format::epub) options.max_sections = kSlidesPerCall;
  // `limit` counts slides or chapters, as it counts paragraphs in a Word document.
  if (call.request.limit)
    options.max_sections = static_cast<std::size_t>(std::min<std::uint64_t>(
        std::max<std::uint64_t>(*call.request.limit, 1), options.max_sections != 0 ? options.max_sections : UINT32_MAX));
  if (call.kind == FileKind::text) options.max_images = 0;
  ReadOutcome outcome = sections::read_file(call.file, F, options, call.cancel);
  if (!outcome.is_error) outcome.meta["kind"] = std::string(call.kind.name());
  return outcome;
}

// As a resource: the text (all of it up to the text cap), without images.
template <sections::Format F>
ResourceReadResult resource_of(const ResourceCall& call) {
  sections::Options options = options_for(call.limits, call.limits.text.max_output_bytes);
  options.max_images = 0;
  return resource_from_outcome(sections::read_file(call.file, F, options, call.cancel), true);
}

std::string describe_slides(const ReadLimits&) {
  return "- PowerPoint (.pptx) and OpenDocument (.odp) presentations: each slide's title, text (bullets, "
         "tables as Markdown) and speaker notes under a slide marker, images as images after their slide; "
         "`pages` selects slides (\"2-5\"), `limit` caps how many.";
}

std::string describe_epub(const ReadLimits&) {
  return "- EPUB books: title and author, then chapters in reading order as text under chapter markers, "
         "images as images after their chapter; `pages` selects chapters, `limit` caps how many, `offset` "
         "continues a chapter cut by the output cap at a line.";
}

}  // namespace

void register_pptx_reader(ReaderRegistry& registry) {
  registry.add(Reader{
      .kind = kPptxKind,
      .article = "a PowerPoint presentation",
      .noun = "PowerPoint presentations",
      .describe = describe_slides,
      .extensions = {{"pptx", "application/vnd.openxmlformats-officedocument.presentationml.presentation"},
                     {"pptm", "application/vnd.ms-powerpoint.presentation.macroEnabled.12"}},
      .also_serves = {FileKind::text},
      .read = read_as<sections::Format::pptx>,
      .resource = resource_of<sections::Format::pptx>,
  });
}

void register_odp_reader(ReaderRegistry& registry) {
  registry.add(Reader{
      .kind = kOdpKind,
      .article = "an OpenDocument presentation",
      .noun = "OpenDocument presentations",
      .extensions = {{"odp", "application/vnd.oasis.opendocument.presentation"}},
      .also_serves = {FileKind::text},
      .read = read_as<sections::Format::odp>,
      .resource = resource_of<sections::Format::odp>,
  });
}

void register_epub_reader(ReaderRegistry& registry) {
  registry.add(Reader{
      .kind = kEpubKind,
      .article = "an EPUB book",
      .noun = "EPUB books",
      .describe = describe_epub,
      .extensions = {{"epub", "application/epub+zip"}},
      .also_serves = {FileKind::text},
      .read = read_as<sections::Format::epub>,
      .resource = resource_of<sections::Format::epub>,
  });
}

}  // namespace mcpread::readers
