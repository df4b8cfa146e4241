// The office document readers: DOCX and ODT as Markdown-like text, paged by paragraphs, with their
// images. Either also serves file_type="text" (the same text, without the images).
#include "mcpread/readers/registry.hpp"
#include "office/reader.hpp"
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
  options.zip.max_total_bytes = call.limits.office_max_unpacked_bytes;
  options.zip.max_entry_bytes = std::min(options.zip.max_entry_bytes, call.limits.office_max_unpacked_bytes);
  ReadOutcome outcome = office::read_office(call.file, F, options, call.cancel);
  if (!outcome.is_error) outcome.meta["kind"] = std::string(call.kind.name());
  return outcome;
}

// As a resource: the document's text (all of it up to the text cap), without its images.
template <office::Format F>
ResourceReadResult office_resource(const ResourceCall& call) {
  office::OfficeOptions options;
  options.max_output_bytes = call.limits.text.max_output_bytes;
  options.max_images = 0;
  options.zip.max_total_bytes = call.limits.office_max_unpacked_bytes;
  options.zip.max_entry_bytes = std::min(options.zip.max_entry_bytes, call.limits.office_max_unpacked_bytes);
  return resource_from_outcome(office::read_office(call.file, F, options, call.cancel), true);
}

std::string describe_docx(const ReadLimits&) {
  return "- Word (.docx) and OpenDocument (.odt) documents: Markdown-like text (headings, lists, tables, "
         "links, notes, comments), images as images after their paragraph; `offset`/`limit` count "
         "paragraphs.";
}

const std::vector<ReaderOption> kOfficeOptions = {
    {"--office-max-unpacked-bytes", "bytes unpacked from one DOCX or ODT at most (zip bombs)", 1 << 20,
     UINT64_MAX, [](const ReadLimits& l) { return l.office_max_unpacked_bytes; },
     [](ReadLimits& l, std::uint64_t v) { l.office_max_unpacked_bytes = v; }}};

}  // namespace

void register_docx_reader(ReaderRegistry& registry) {
  registry.add(Reader{
      .kind = kDocxKind,
      .article = "a Word document",
      .noun = "Word documents",
      .describe = describe_docx,
      .extensions = {{"docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document"},
                     {"docm", "application/vnd.ms-word.document.macroEnabled.12"}},
      .also_serves = {FileKind::text},
      .options = kOfficeOptions,
      .read = read_as_office<office::Format::docx>,
      .resource = office_resource<office::Format::docx>,
  });
}

void register_odt_reader(ReaderRegistry& registry) {
  registry.add(Reader{
      .kind = kOdtKind,
      .article = "an OpenDocument text",
      .noun = "OpenDocument texts",
      .extensions = {{"odt", "application/vnd.oasis.opendocument.text"}},
      .also_serves = {FileKind::text},
      .read = read_as_office<office::Format::odt>,
      .resource = office_resource<office::Format::odt>,
  });
}

}  // namespace mcpread::readers
