// The deck readers of the Document Liberation Project's importers, answered as PPTX decks are
// (sections::render: a marker per page or slide, its text, its images after it, `pages` picks
// them): `drawing` for Visio, Publisher, CorelDRAW, FreeHand, PageMaker, QuarkXPress and Zoner Draw
// files, page by page; `keynote` for Keynote presentations, slide by slide with their notes. The
// bytes decide where a format has a signature (a Visio package's entries, a RIFF CorelDRAW file,
// Keynote's index); an OLE2 file only by its name among the OLE2 formats (.vsd, .pub); the
// formats with no signature mcp-read knows by their name and not being text. The importers'
// own detection decides in the plugin. Names shared with common text files (.key for keys,
// .pub for public keys, .vsd for GROMACS data) claim nothing.
#include "mcpread/readers/registry.hpp"
#include "package/zip_head.hpp"
#include "resource_contents.hpp"
#include "revenge/revenge_decks.hpp"

#include <algorithm>
#include <array>
#include <cctype>

namespace mcpread::readers {

inline constexpr FileKind kDrawingKind{"drawing"};
inline constexpr FileKind kKeynoteKind{"keynote"};

namespace {

constexpr std::size_t kPagesPerCall = 50;  // as for PPTX: the output cap stops long decks first

constexpr std::string_view kVisioMime = "application/vnd.visio";
constexpr std::string_view kVisioXmlMime = "application/vnd.ms-visio.drawing.main+xml";
constexpr std::string_view kKeynoteMime = "application/vnd.apple.keynote";

std::string_view head_of(const SniffInput& in) {
  return {reinterpret_cast<const char*>(in.head.data()), in.head.size()};
}

// Visio 2003-2010's XML drawing: a <VisioDocument> root after nothing but a prolog and comments
// (a source file or a page that only names the element is not one).
bool visio_xml(std::string_view head) {
  if (head.starts_with("\xEF\xBB\xBF")) head.remove_prefix(3);
  for (;;) {
    head.remove_prefix(std::min(head.find_first_not_of(" \t\r\n"), head.size()));
    const std::string_view close = head.starts_with("<?") ? "?>" : head.starts_with("<!--") ? "-->" : head.starts_with("<!") ? ">" : "";
    if (close.empty()) return head.starts_with("<VisioDocument");
    const std::size_t end = head.find(close);
    if (end == std::string_view::npos) return false;
    head.remove_prefix(end + close.size());
  }
}

bool one_of(std::string_view ext, std::initializer_list<std::string_view> names) {
  return std::find(names.begin(), names.end(), ext) != names.end();
}

// FreeHand names its files by version: .fh, .fh3 to .fh11, .ft for templates.
bool freehand_name(std::string_view ext) {
  if (ext == "ft" || ext == "fh") return true;
  return ext.size() > 2 && ext.starts_with("fh") &&
         std::all_of(ext.begin() + 2, ext.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

std::optional<Sniffed> sniff_drawing(const SniffInput& in) {
  const std::string_view head = head_of(in);
  const zip_head::ZipHead& z = in.zip();
  // Visio 2013 and later: an OPC package with its parts under visio/.
  if (z.zip && (z.has("visio/document.xml") || z.ooxml("visio/"))) return Sniffed{kVisioXmlMime, "Microsoft Visio drawing (VSDX)"};
  if (in.clean_text && visio_xml(head))
    return Sniffed{kVisioMime, "Microsoft Visio XML drawing (VDX)"};
  // CorelDRAW: a RIFF file of form CDR (versions 3 to X3: "CDR" and a version letter), or CMX;
  // from X4 on, a zip with the RIFF data in content/.
  if (head.size() >= 12 && head.starts_with("RIFF")) {
    const std::string_view form = head.substr(8, 3);
    if (form == "CDR" || form == "cdr") return Sniffed{"application/vnd.corel-draw", "CorelDRAW drawing"};
    if (head.substr(8, 4) == "CMX1") return Sniffed{"application/x-cmx", "Corel Presentation Exchange drawing"};
  }
  if (z.zip && (z.has("content/riffData.cdr") || z.has("content/root.dat")))
    return Sniffed{"application/vnd.corel-draw", "CorelDRAW drawing (X4 or later)"};
  if (z.ole2 && one_of(in.extension, {"vsd", "vss", "vst", "vsw"}))
    return Sniffed{kVisioMime, "Microsoft Visio drawing (VSD)"};
  if (z.ole2 && in.extension == "pub") return Sniffed{"application/vnd.ms-publisher", "Microsoft Publisher document"};
  if (in.clean_text || z.zip || z.ole2) return std::nullopt;
  // No signature known here: the name, checked by the importer's own detection.
  if (freehand_name(in.extension)) return Sniffed{"image/x-freehand", "FreeHand drawing", false};
  if (one_of(in.extension, {"pmd", "pm6", "p65"})) return Sniffed{"application/x-pagemaker", "PageMaker document", false};
  if (one_of(in.extension, {"qxp", "qxt"})) return Sniffed{"application/vnd.quark.quarkxpress", "QuarkXPress document", false};
  if (in.extension == "zmf") return Sniffed{"application/x-zmf", "Zoner Draw drawing", false};
  return std::nullopt;
}

// Keynote 2 to 5 keep index.apxl, Keynote 6 and later Index/Document.iwa beside the slides'
// Index/Slide-*.iwa and Index/MasterSlide-*.iwa; a package folder zipped whole has them under
// "<name>.key/".
std::optional<Sniffed> sniff_keynote(const SniffInput& in) {
  const zip_head::ZipHead& z = in.zip();
  if (!z.zip) return std::nullopt;
  const bool slides = std::any_of(z.names.begin(), z.names.end(), [](std::string_view name) {
    return name.starts_with("Index/Slide") || name.starts_with("Index/MasterSlide") ||
           name.find(".key/") != std::string_view::npos;
  });
  if (z.has("index.apxl") || z.has("index.apxl.gz") || slides ||
      (in.extension == "key" && z.has_prefix("Index/")))
    return Sniffed{kKeynoteMime, "Apple Keynote presentation"};
  return std::nullopt;
}

sections::Options deck_options(const ReadLimits& limits, std::size_t cap) {
  sections::Options options;
  options.max_output_bytes = cap;
  options.image = limits.image;
  return options;
}

// A `read` call: `pages`, `offset` and `limit` (pages) as for PPTX; no images as text.
template <const char* What>
ReadOutcome read_deck(const ReaderCall& call) {
  sections::Options options = deck_options(call.limits, media_text_cap(call.limits));
  options.pages = call.request.pages;
  if (call.request.offset) options.offset = *call.request.offset;
  options.max_sections = kPagesPerCall;
  if (call.request.limit)
    options.max_sections = static_cast<std::size_t>(std::clamp<std::uint64_t>(*call.request.limit, 1, kPagesPerCall));
  if (call.kind == FileKind::text) options.max_images = 0;
  options.wording = call.request.wording;
  ReadOutcome outcome = revenge::read_revenge_deck_file(call.file, What, options, call.cancel);
  if (!outcome.is_error) outcome.meta["mime"] = call.classification.mime;
  return outcome;
}

// As a resource: the text, all of it up to the text cap, without images.
template <const char* What>
ResourceReadResult deck_resource(const ResourceCall& call) {
  sections::Options options = deck_options(call.limits, call.limits.text.max_output_bytes);
  options.max_images = 0;
  options.wording = call.wording;
  return resource_from_outcome(revenge::read_revenge_deck_file(call.file, What, options, call.cancel), true);
}

constexpr char kDrawingWhat[] = "a drawing";
constexpr char kKeynoteWhat[] = "a Keynote presentation";

// The PPTX line's words, so that the decks share its line of the tool description (a page of a
// drawing reads as a slide does; a drawing has no notes).
std::string describe_deck(const ReadLimits&) {
  return "slides with title, text and notes, images after each; `limit` caps them.";
}

}  // namespace

bool register_drawing_reader(ReaderRegistry& registry) {
  return registry.add(Reader{
      .kind = kDrawingKind,
      .article = kDrawingWhat,
      .noun = "Visio, Publisher, CorelDRAW and other drawings",
      .describe = describe_deck,
      .extensions = {{"vsdx", kVisioXmlMime},
                     {"vsdm", kVisioXmlMime},
                     {"vssx", kVisioXmlMime},
                     {"vssm", kVisioXmlMime},
                     {"vstx", kVisioXmlMime},
                     {"vstm", kVisioXmlMime},
                     {"vdx", kVisioMime}},
      .sniff = sniff_drawing,
      .also_serves = {FileKind::text},
      .read = read_deck<kDrawingWhat>,
      .resource = deck_resource<kDrawingWhat>,
  });
}

bool register_keynote_reader(ReaderRegistry& registry) {
  return registry.add(Reader{
      .kind = kKeynoteKind,
      .article = kKeynoteWhat,
      .noun = "Keynote presentations",
      .describe = describe_deck,
      .sniff = sniff_keynote,
      .also_serves = {FileKind::text},
      .read = read_deck<kKeynoteWhat>,
      .resource = deck_resource<kKeynoteWhat>,
  });
}

}  // namespace mcpread::readers
