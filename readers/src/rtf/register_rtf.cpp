// The RTF reader: a Rich Text Format document as Markdown-like text (headings, lists, tables,
// footnotes, links), paged by paragraphs, its pictures after their paragraph. file_type="text"
// gives the RTF source through the text reader.
#include "mcpread/readers/registry.hpp"
#include "resource_contents.hpp"
#include "rtf/rtf_reader.hpp"

namespace mcpread::readers {

inline constexpr FileKind kRtfKind{"rtf"};

namespace {

office::OfficeOptions rtf_options(const ReadLimits& limits) {
  office::OfficeOptions options;
  options.max_output_bytes = media_text_cap(limits);
  options.image = limits.image;
  return options;
}

ReadOutcome read_as_rtf(const ReaderCall& call) {
  office::OfficeOptions options = rtf_options(call.limits);
  if (call.request.offset) options.offset = *call.request.offset;
  options.limit = call.request.limit;
  options.wording = call.request.wording;
  ReadOutcome outcome = rtf::read_rtf_file(call.file, options, call.cancel);
  if (!outcome.is_error) outcome.meta["mime"] = call.classification.mime;
  return outcome;
}

// As a resource: the document's text (all of it up to the text cap), without its pictures.
ResourceReadResult rtf_resource(const ResourceCall& call) {
  office::OfficeOptions options = rtf_options(call.limits);
  options.max_output_bytes = call.limits.text.max_output_bytes;
  options.max_images = 0;
  options.wording = call.wording;
  return resource_from_outcome(rtf::read_rtf_file(call.file, options, call.cancel), true);
}

std::string describe_rtf(const ReadLimits&) { return "Markdown-like text, images after their paragraph."; }

// Every RTF document starts with "{\rtf" (the specification's header), whatever its extension.
std::optional<Sniffed> sniff_rtf(const SniffInput& in) {
  const std::string_view head(reinterpret_cast<const char*>(in.head.data()), in.head.size());
  if (!head.starts_with("{\\rtf")) return std::nullopt;
  return Sniffed{"application/rtf", "Rich Text Format document"};
}

}  // namespace

bool register_rtf_reader(ReaderRegistry& registry) {
  return registry.add(Reader{
      .kind = kRtfKind,
      .article = "an RTF document",
      .noun = "RTF documents",
      .describe = describe_rtf,
      .counts = "paragraph",
      .extensions = {{"rtf", "application/rtf"}},
      .sniff = sniff_rtf,
      .text_based = true,
      .read = read_as_rtf,
      .resource = rtf_resource,
  });
}

}  // namespace mcpread::readers
