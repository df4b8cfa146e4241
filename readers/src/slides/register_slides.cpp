// The presentation readers (PowerPoint and OpenDocument) and the e-book reader (EPUB): one
// section per slide or chapter, with its title, text, notes and images; `pages` selects them.
// Each also serves file_type="text" (the same text, without the images).
#include "mcpread/readers/registry.hpp"
#include "package/open.hpp"
#include "package/zip_head.hpp"
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
  options.zip = package::zip_limits(limits);
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
  options.wording = call.request.wording;
  return sections::read_file(call.file, F, options, call.cancel);
}

// As a resource: the text (all of it up to the text cap), without images.
template <sections::Format F>
ResourceReadResult resource_of(const ResourceCall& call) {
  sections::Options options = options_for(call.limits, call.limits.text.max_output_bytes);
  options.max_images = 0;
  options.wording = call.wording;
  return resource_from_outcome(sections::read_file(call.file, F, options, call.cancel), true);
}

std::string describe_presentations(const ReadLimits&) {
  return "slides with title, text and notes, images after each; `pages` picks slides, `limit` caps them.";
}

std::string describe_epub(const ReadLimits&) {
  return "chapters in order, images after each; `pages` picks chapters, `limit` caps them, `offset` goes "
         "on in a cut chapter.";
}

constexpr std::string_view kPptxMime = "application/vnd.openxmlformats-officedocument.presentationml.presentation";
constexpr std::string_view kOdpMime = "application/vnd.oasis.opendocument.presentation";
constexpr std::string_view kEpubMime = "application/epub+zip";

// A PowerPoint package by its entries (ppt/presentation.xml, or [Content_Types].xml with parts
// under ppt/); an OLE2 compound file named .pptx is an encrypted (or legacy) one.
std::optional<Sniffed> sniff_pptx(const SniffInput& in) {
  const bool named = in.extension == "pptx" || in.extension == "pptm";
  const zip_head::ZipHead& z = in.zip();
  if (z.ole2 && named) return Sniffed{kPptxMime, "OLE2 compound file (an encrypted or legacy Office document)"};
  if (!z.zip) return std::nullopt;
  constexpr std::string_view kName = "Microsoft PowerPoint presentation (PPTX)";
  if (z.has("ppt/presentation.xml") || z.ooxml("ppt/")) return Sniffed{kPptxMime, kName};
  if (named && z.has("[Content_Types].xml")) return Sniffed{kPptxMime, kName, false};
  return std::nullopt;
}

// An OpenDocument presentation by the `mimetype` entry it stores first (a template too).
std::optional<Sniffed> sniff_odp(const SniffInput& in) {
  const zip_head::ZipHead& z = in.zip();
  if (z.mimetype == kOdpMime || z.mimetype == "application/vnd.oasis.opendocument.presentation-template")
    return Sniffed{kOdpMime, "OpenDocument presentation"};
  return std::nullopt;
}

// An EPUB by its `mimetype` entry; one named .epub whose writer left that entry out (or put it
// later) by its container or package document.
std::optional<Sniffed> sniff_epub(const SniffInput& in) {
  const zip_head::ZipHead& z = in.zip();
  if (z.mimetype == kEpubMime) return Sniffed{kEpubMime, "EPUB book"};
  if (!z.zip || in.extension != "epub") return std::nullopt;
  for (std::string_view name : z.names)
    if (name == "META-INF/container.xml" || name.ends_with(".opf")) return Sniffed{kEpubMime, "EPUB book"};
  return std::nullopt;
}

}  // namespace

bool register_pptx_reader(ReaderRegistry& registry) {
  return registry.add(Reader{
      .kind = kPptxKind,
      .article = "a PowerPoint presentation",
      .noun = "PowerPoint presentations",
      .describe = describe_presentations,
      .extensions = {{"pptx", "application/vnd.openxmlformats-officedocument.presentationml.presentation"},
                     {"pptm", "application/vnd.ms-powerpoint.presentation.macroEnabled.12"}},
      .sniff = sniff_pptx,
      .also_serves = {FileKind::text},
      .read = read_as<sections::Format::pptx>,
      .resource = resource_of<sections::Format::pptx>,
  });
}

bool register_odp_reader(ReaderRegistry& registry) {
  return registry.add(Reader{
      .kind = kOdpKind,
      .article = "an OpenDocument presentation",
      .noun = "OpenDocument presentations",
      .describe = describe_presentations,
      .extensions = {{"odp", "application/vnd.oasis.opendocument.presentation"}},
      .sniff = sniff_odp,
      .also_serves = {FileKind::text},
      .read = read_as<sections::Format::odp>,
      .resource = resource_of<sections::Format::odp>,
  });
}

bool register_epub_reader(ReaderRegistry& registry) {
  return registry.add(Reader{
      .kind = kEpubKind,
      .article = "an EPUB book",
      .noun = "EPUB books",
      .describe = describe_epub,
      .extensions = {{"epub", "application/epub+zip"}},
      .sniff = sniff_epub,
      .also_serves = {FileKind::text},
      .read = read_as<sections::Format::epub>,
      .resource = resource_of<sections::Format::epub>,
  });
}

}  // namespace mcpread::readers
