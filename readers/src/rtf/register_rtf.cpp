// The RTF reader: a Rich Text Format document as Markdown-like text (headings, lists, tables,
// footnotes, links), paged by paragraphs, its pictures after their paragraph. file_type="text"
// gives the RTF source through the text reader.
#include "mcpread/readers/registry.hpp"
#include "office/document_calls.hpp"
#include "rtf/rtf_reader.hpp"

namespace mcpread::readers {

inline constexpr FileKind kRtfKind{"rtf"};

namespace {

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
      .read = [](const ReaderCall& call) { return office::read_call(call, rtf::read_rtf_file); },
      .resource = [](const ResourceCall& call) { return office::resource_call(call, rtf::read_rtf_file); },
  });
}

}  // namespace mcpread::readers
