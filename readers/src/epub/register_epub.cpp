// The e-book reader (EPUB): one section per chapter in reading order, with its text and images;
// `pages` selects chapters, `offset` goes on in a cut one. It also serves file_type="text" (the
// same text, without the images).
#include "epub/epub.hpp"
#include "mcpread/readers/registry.hpp"
#include "package/zip_head.hpp"

namespace mcpread::readers {

inline constexpr FileKind kEpubKind{"epub"};

namespace {

std::string describe_epub(const ReadLimits&) {
  return "chapters in order, images after each; `limit` caps them, `offset` goes on in a cut chapter.";
}

constexpr std::string_view kEpubMime = "application/epub+zip";

// An EPUB by its `mimetype` entry; one named .epub whose writer left that entry out (or put it
// later) by its container or package document.
std::optional<Sniffed> sniff_epub(const SniffInput& in) {
  const zip_head::ZipHead& z = in.zip();
  if (z.mimetype == kEpubMime) return Sniffed{kEpubMime, "EPUB book"};
  if (!z.zip || in.extension != "epub") return std::nullopt;
  for (std::string_view name : z.names)
    if (name == "META-INF/container.xml" || name.ends_with(".opf")) return Sniffed{kEpubMime, "EPUB book"};
  return std::nullopt;
}

}  // namespace

bool register_epub_reader(ReaderRegistry& registry) {
  return registry.add(Reader{
      .kind = kEpubKind,
      .article = "an EPUB book",
      .noun = "EPUB books",
      .describe = describe_epub,
      .extensions = {{"epub", "application/epub+zip"}},
      .sniff = sniff_epub,
      .also_serves = {FileKind::text},
      // A chapter may be long: the output cap, not a count, ends an answer.
      .read = [](const ReaderCall& call) { return sections::read_call(call, epub::kEpub, 0); },
      .resource = [](const ResourceCall& call) { return sections::read_as_resource(call, epub::kEpub); },
  });
}

}  // namespace mcpread::readers
