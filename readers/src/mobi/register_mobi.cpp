// The MOBI reader: Mobipocket and Kindle e-books (.mobi, .azw, .azw3, .prc) through libmobi,
// answered as EPUB books are: chapters in order, images after each; `pages` picks chapters,
// `limit` caps them, `offset` goes on in a cut chapter. It also serves file_type="text" (the same
// text, without the images).
#include "mcpread/readers/registry.hpp"
#include "mobi/mobi_reader.hpp"

namespace mcpread::readers {

inline constexpr FileKind kMobiKind{"mobi"};

namespace {

// The same words as the EPUB reader's, so that the two share one line of the tool description.
std::string describe_mobi(const ReadLimits&) {
  return "chapters in order, images after each; `limit` caps them, `offset` goes on in a cut chapter.";
}

// A Palm database whose type and creator (at 60) say Mobipocket book or PalmDOC text.
std::optional<Sniffed> sniff_mobi(const SniffInput& in) {
  if (in.head.size() < 78) return std::nullopt;
  const std::string_view id(reinterpret_cast<const char*>(in.head.data()) + 60, 8);
  if (id == "BOOKMOBI") return Sniffed{"application/x-mobipocket-ebook", "Mobipocket e-book"};
  if (id == "TEXtREAd") return Sniffed{"application/x-mobipocket-ebook", "PalmDOC e-book"};
  return std::nullopt;
}

}  // namespace

bool register_mobi_reader(ReaderRegistry& registry) {
  return registry.add(Reader{
      .kind = kMobiKind,
      .article = "a MOBI e-book",
      .noun = "MOBI and Kindle e-books",
      .describe = describe_mobi,
      .extensions = {{"mobi", "application/x-mobipocket-ebook"},
                     {"azw", "application/vnd.amazon.ebook"},
                     {"azw3", "application/vnd.amazon.mobi8-ebook"},
                     {"prc", "application/x-mobipocket-ebook"}},
      .sniff = sniff_mobi,
      .also_serves = {FileKind::text},
      .read = mobi::read_call,
      .resource = mobi::read_as_resource,
  });
}

}  // namespace mcpread::readers
