// The presentation readers (PowerPoint and OpenDocument): one section per slide, with its title,
// text, notes and images; `pages` selects slides. Each also serves file_type="text" (the same
// text, without the images).
#include "mcpread/readers/registry.hpp"
#include "package/zip_head.hpp"
#include "slides/slides.hpp"

namespace mcpread::readers {

inline constexpr FileKind kPptxKind{"pptx"};
inline constexpr FileKind kOdpKind{"odp"};

namespace {

constexpr std::size_t kSlidesPerCall = 50;  // a slide is short: the output cap stops long decks first

std::string describe_presentations(const ReadLimits&) {
  return "slides with title, text and notes, images after each; `limit` caps them.";
}

constexpr std::string_view kPptxMime = "application/vnd.openxmlformats-officedocument.presentationml.presentation";
constexpr std::string_view kOdpMime = "application/vnd.oasis.opendocument.presentation";

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
      .read = [](const ReaderCall& call) { return sections::read_call(call, slides::kPptx, kSlidesPerCall); },
      .resource = [](const ResourceCall& call) { return sections::read_as_resource(call, slides::kPptx); },
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
      .read = [](const ReaderCall& call) { return sections::read_call(call, slides::kOdp, kSlidesPerCall); },
      .resource = [](const ResourceCall& call) { return sections::read_as_resource(call, slides::kOdp); },
  });
}

}  // namespace mcpread::readers
