// The FictionBook reader: an FB2 e-book as Markdown-like text (title and authors, sections as
// headings, poems, quotes, tables, footnotes), paged by paragraphs, its images after their
// paragraph. file_type="text" gives the book's XML through the text reader.
#include "fb2/fb2_reader.hpp"
#include "mcpread/readers/registry.hpp"
#include "office/document_calls.hpp"

#include <cctype>

namespace mcpread::readers {

inline constexpr FileKind kFb2Kind{"fb2"};

namespace {

std::string describe_fb2(const ReadLimits&) { return "Markdown-like text, images after their paragraph."; }

// An XML document whose root is <FictionBook>, seen in the head whatever its extension.
std::optional<Sniffed> sniff_fb2(const SniffInput& in) {
  const std::string_view head(reinterpret_cast<const char*>(in.head.data()), in.head.size());
  const std::size_t root = head.find("<FictionBook");
  if (root == std::string_view::npos) return std::nullopt;
  // Only a prolog (the declaration, comments, a doctype) comes before the root: no other element.
  const std::string_view before = head.substr(0, root);
  for (std::size_t lt = before.find('<'); lt != std::string_view::npos; lt = before.find('<', lt + 1))
    if (lt + 1 < before.size() && std::isalpha(static_cast<unsigned char>(before[lt + 1]))) return std::nullopt;
  return Sniffed{"application/x-fictionbook+xml", "FictionBook e-book"};
}

}  // namespace

bool register_fb2_reader(ReaderRegistry& registry) {
  return registry.add(Reader{
      .kind = kFb2Kind,
      .article = "a FictionBook e-book",
      .noun = "FictionBook e-books",
      .describe = describe_fb2,
      .counts = "paragraph",
      .extensions = {{"fb2", "application/x-fictionbook+xml"}},
      .sniff = sniff_fb2,
      .text_based = true,
      .read = [](const ReaderCall& call) { return office::read_call(call, fb2::read_fb2_file); },
      .resource = [](const ResourceCall& call) { return office::resource_call(call, fb2::read_fb2_file); },
  });
}

}  // namespace mcpread::readers
