// The word-processor reader: the documents The Document Liberation Project's importers read
// (WordPerfect, AbiWord, StarWriter, Pages, Palm e-books), through a plugin, as Markdown-like
// text paged by paragraphs with images after their paragraph. The bytes decide: each format's
// signature here, then each importer's own detection in the plugin; a name alone claims nothing
// (.pdb is also the Protein Data Bank's text format, .pages any zip).
#include "mcpread/readers/registry.hpp"
#include "office/document_calls.hpp"
#include "package/zip_head.hpp"
#include "revenge/revenge_reader.hpp"

#include <algorithm>
#include <array>
#include <cctype>

namespace mcpread::readers {

inline constexpr FileKind kWordprocKind{"wordproc"};

namespace {

std::string describe_wordproc(const ReadLimits&) { return "Markdown-like text, images after their paragraph."; }

std::string_view head_of(const SniffInput& in) {
  return {reinterpret_cast<const char*>(in.head.data()), in.head.size()};
}

// AbiWord's XML: an <abiword> root after nothing but a prolog.
bool abiword_xml(std::string_view head) {
  std::size_t root = head.find("<abiword");
  if (root == std::string_view::npos) return false;
  const std::string_view before = head.substr(0, root);
  for (std::size_t lt = before.find('<'); lt != std::string_view::npos; lt = before.find('<', lt + 1))
    if (lt + 1 < before.size() && std::isalpha(static_cast<unsigned char>(before[lt + 1]))) return false;
  return true;
}

// A Palm database's type and creator (bytes 60-67) of the e-book formats libe-book reads. PalmDOC
// ("TEXtREAd") is not among them: the MOBI reader, registered first, claims it (libmobi reads it).
std::optional<Sniffed> palm_book(std::string_view head) {
  if (head.size() < 78) return std::nullopt;
  const std::string_view id = head.substr(60, 8);
  constexpr std::array<std::pair<std::string_view, std::string_view>, 4> kBooks = {{
      {"TEXtTlDc", "TealDoc e-book"},
      {"PNRdPPrs", "eReader e-book"},
      {"DataPlkr", "Plucker e-book"},
      {"zTXTGPlm", "zTXT e-book"},
  }};
  for (const auto& [type, description] : kBooks)
    if (id == type) return Sniffed{"application/vnd.palm", description};
  return std::nullopt;
}

bool pages_folder(const zip_head::ZipHead& zip) {
  return std::any_of(zip.names.begin(), zip.names.end(),
                     [](std::string_view name) { return name.find(".pages/") != std::string_view::npos; });
}

std::optional<Sniffed> sniff_wordproc(const SniffInput& in) {
  const std::string_view head = head_of(in);
  // WordPerfect 5 to X9: the "WPC" header of product 1 (WordPerfect), file type 10 (a document).
  if (head.size() >= 16 && head.starts_with("\xFFWPC") && head[8] == 1 && head[9] == 10)
    return Sniffed{"application/vnd.wordperfect", "WordPerfect document"};
  if (in.clean_text && abiword_xml(head)) return Sniffed{"application/x-abiword", "AbiWord document"};
  if (in.extension == "zabw" && head.starts_with("\x1F\x8B"))
    return Sniffed{"application/x-abiword", "AbiWord document (gzip-compressed)"};
  if (auto book = palm_book(head)) return book;
  if (in.extension == "sdw" && in.zip().ole2) return Sniffed{"application/vnd.stardivision.writer", "StarWriter document"};
  // Pages 4 keeps index.xml, Pages 5 and later Index/Document.iwa in a zip; a package folder
  // zipped whole (as a mail attachment or a download is) has them under "<name>.pages/".
  if (in.extension == "pages" && in.zip().zip &&
      (in.zip().has("index.xml") || in.zip().has_prefix("Index/") || pages_folder(in.zip())))
    return Sniffed{"application/vnd.apple.pages", "Apple Pages document"};
  return std::nullopt;
}

}  // namespace

bool register_wordproc_reader(ReaderRegistry& registry) {
  return registry.add(Reader{
      .kind = kWordprocKind,
      .article = "a word-processor document",
      .noun = "WordPerfect, AbiWord, StarWriter and Pages documents",
      .describe = describe_wordproc,
      .counts = "paragraph",
      .extensions = {{"wpd", "application/vnd.wordperfect"},
                     {"wp5", "application/vnd.wordperfect"},
                     {"wp6", "application/vnd.wordperfect"},
                     {"abw", "application/x-abiword"},
                     {"zabw", "application/x-abiword"},
                     {"sdw", "application/vnd.stardivision.writer"},
                     {"pages", "application/vnd.apple.pages"}},
      .sniff = sniff_wordproc,
      .read = [](const ReaderCall& call) { return office::read_call(call, revenge::read_revenge_file); },
      .resource = [](const ResourceCall& call) { return office::resource_call(call, revenge::read_revenge_file); },
  });
}

}  // namespace mcpread::readers
