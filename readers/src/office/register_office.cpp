// The office document readers: DOCX and ODT as Markdown-like text, paged by paragraphs, with their
// images. Either also serves file_type="text" (the same text, without the images).
#include "mcpread/readers/registry.hpp"
#include "office/reader.hpp"
#include "package/open.hpp"
#include "package/zip_head.hpp"
#include "resource_contents.hpp"

namespace mcpread::readers {

inline constexpr FileKind kDocxKind{"docx"};
inline constexpr FileKind kOdtKind{"odt"};

namespace {

template <office::Format F>
ReadOutcome read_as_office(const ReaderCall& call) {
  office::OfficeOptions options;
  if (call.request.offset) options.offset = *call.request.offset;
  options.limit = call.request.limit;
  options.max_output_bytes = media_text_cap(call.limits);
  options.image = call.limits.image;
  if (call.kind == FileKind::text) options.max_images = 0;
  options.zip = package::zip_limits(call.limits);
  options.wording = call.request.wording;
  return office::read_office(call.file, F, options, call.cancel);
}

// As a resource: the document's text (all of it up to the text cap), without its images.
template <office::Format F>
ResourceReadResult office_resource(const ResourceCall& call) {
  office::OfficeOptions options;
  options.max_output_bytes = call.limits.text.max_output_bytes;
  options.max_images = 0;
  options.zip = package::zip_limits(call.limits);
  options.wording = call.wording;
  return resource_from_outcome(office::read_office(call.file, F, options, call.cancel), true);
}

std::string describe_documents(const ReadLimits&) {
  return "Markdown-like text, images after their paragraph.";
}

constexpr std::string_view kDocxMime = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
constexpr std::string_view kOdtMime = "application/vnd.oasis.opendocument.text";
constexpr std::string_view kOle2 = "OLE2 compound file (an encrypted or legacy Office document)";

// A Word package by its entries: word/document.xml, or [Content_Types].xml with parts under
// word/; named .docx or .docm, [Content_Types].xml alone is a guess. An OLE2 compound file named
// so is an encrypted (or legacy) Word file: the reader says which.
std::optional<Sniffed> sniff_docx(const SniffInput& in) {
  const bool named = in.extension == "docx" || in.extension == "docm";
  const zip_head::ZipHead& z = in.zip();
  if (z.ole2 && named) return Sniffed{kDocxMime, kOle2};
  if (!z.zip) return std::nullopt;
  constexpr std::string_view kWord = "Microsoft Word document (DOCX)";
  if (z.has("word/document.xml") || z.ooxml("word/")) return Sniffed{kDocxMime, kWord};
  if (named && z.has("[Content_Types].xml")) return Sniffed{kDocxMime, kWord, false};
  return std::nullopt;
}

// An OpenDocument text by the `mimetype` entry it stores first (a template too).
std::optional<Sniffed> sniff_odt(const SniffInput& in) {
  const zip_head::ZipHead& z = in.zip();
  if (z.ole2 && in.extension == "odt") return Sniffed{kOdtMime, kOle2};
  if (z.mimetype == kOdtMime || z.mimetype == "application/vnd.oasis.opendocument.text-template")
    return Sniffed{kOdtMime, "OpenDocument text"};
  return std::nullopt;
}

}  // namespace

bool register_docx_reader(ReaderRegistry& registry) {
  return registry.add(Reader{
      .kind = kDocxKind,
      .article = "a Word document",
      .noun = "Word documents",
      .describe = describe_documents,
      .counts = "paragraph",
      .extensions = {{"docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document"},
                     {"docm", "application/vnd.ms-word.document.macroEnabled.12"}},
      .sniff = sniff_docx,
      .also_serves = {FileKind::text},
      .options = package::zip_options(),  // once, for every zip-based reader
      .read = read_as_office<office::Format::docx>,
      .resource = office_resource<office::Format::docx>,
  });
}

bool register_odt_reader(ReaderRegistry& registry) {
  return registry.add(Reader{
      .kind = kOdtKind,
      .article = "an OpenDocument text",
      .noun = "OpenDocument texts",
      .describe = describe_documents,
      .counts = "paragraph",
      .extensions = {{"odt", "application/vnd.oasis.opendocument.text"}},
      .sniff = sniff_odt,
      .also_serves = {FileKind::text},
      .read = read_as_office<office::Format::odt>,
      .resource = office_resource<office::Format::odt>,
  });
}

}  // namespace mcpread::readers
