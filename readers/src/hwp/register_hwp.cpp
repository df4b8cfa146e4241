// The Hangul word processor reader: an HWP 5.0 document (Hancom's .hwp, an OLE2 compound file)
// as Markdown-like text, paged by paragraphs as Word documents are; its pictures are not read.
// Known by its content: an OLE2 compound file whose FileHeader stream starts "HWP Document File".
// The name alone claims nothing: Hedgewars' maps and missions are .hwp files too (zip archives).
#include "hwp/hwp_reader.hpp"
#include "mcpread/readers/registry.hpp"
#include "office/document_calls.hpp"
#include "package/zip_head.hpp"

namespace mcpread::readers {

inline constexpr FileKind kHwpKind{"hwp"};

namespace {

// The word processors' line's words, so that they share one line of the tool description, which
// has a budget (as .doc's: an HWP document's pictures are not read, its answers simply hold none).
std::string describe_hwp(const ReadLimits&) { return "Markdown-like text, images after their paragraph."; }

// An OLE2 compound file whose FileHeader stream's signature is in the head (small documents put
// it in the first sectors), or one named .hwp: the signature of a large one may lie past the
// head, and the reader checks it before reading anything else.
std::optional<Sniffed> sniff_hwp(const SniffInput& in) {
  if (!in.zip().ole2) return std::nullopt;
  const std::string_view head(reinterpret_cast<const char*>(in.head.data()), in.head.size());
  if (head.find(hwp::kSignature) == std::string_view::npos && in.extension != "hwp") return std::nullopt;
  return Sniffed{"application/x-hwp", "Hangul word processor (HWP 5) document"};
}

}  // namespace

bool register_hwp_reader(ReaderRegistry& registry) {
  return registry.add(Reader{
      .kind = kHwpKind,
      .article = "a Hangul (HWP) document",
      .noun = "Hangul (HWP) documents",
      .describe = describe_hwp,
      .counts = "paragraph",
      .sniff = sniff_hwp,
      .also_serves = {FileKind::text},
      .read = [](const ReaderCall& call) { return office::read_call(call, hwp::read_hwp_file, false); },
      .resource = [](const ResourceCall& call) { return office::resource_call(call, hwp::read_hwp_file); },
  });
}

}  // namespace mcpread::readers
