// The Word 97-2003 reader: a .doc or .dot document (Word 6 and 95 too) as Markdown-like text
// through libwv, paged by paragraphs as DOCX documents are; its pictures are counted, not shown.
// Other OLE2 compound files (.xls, .ppt, .msg) share the magic, so the name decides among them;
// and the name alone claims nothing: plain-text and HTML files named .doc are common, and .dot is
// also Graphviz's extension, so only an OLE2 compound file so named is read here.
#include "doc/doc_reader.hpp"
#include "mcpread/readers/registry.hpp"
#include "office/document_calls.hpp"
#include "package/zip_head.hpp"

namespace mcpread::readers {

inline constexpr FileKind kDocKind{"doc"};

namespace {

constexpr std::string_view kDocMime = "application/msword";

// The DOCX line's words, so that the two share one line of the tool description, which has a
// budget (as .ppt shares PPTX's: a .doc's pictures are not read, its answers simply hold none).
std::string describe_doc(const ReadLimits&) { return "Markdown-like text, images after their paragraph."; }

// An OLE2 compound file named .doc or .dot: the name says which of the OLE2 formats it is.
std::optional<Sniffed> sniff_doc(const SniffInput& in) {
  if (in.extension != "doc" && in.extension != "dot") return std::nullopt;
  if (!in.zip().ole2) return std::nullopt;
  return Sniffed{kDocMime, "Microsoft Word 97-2003 document"};
}

}  // namespace

bool register_doc_reader(ReaderRegistry& registry) {
  return registry.add(Reader{
      .kind = kDocKind,
      .article = "a Word 97-2003 document",
      .noun = "Word 97-2003 documents",
      .describe = describe_doc,
      .counts = "paragraph",
      .sniff = sniff_doc,
      .also_serves = {FileKind::text},
      .read = [](const ReaderCall& call) { return office::read_call(call, doc::read_doc_file, false); },
      .resource = [](const ResourceCall& call) { return office::resource_call(call, doc::read_doc_file); },
  });
}

}  // namespace mcpread::readers
