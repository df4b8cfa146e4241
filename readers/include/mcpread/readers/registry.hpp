#pragma once
// Every format mcp-read reads, each declared once by its own reader, in the spirit of
// ClickHouse's registerFormats: its kind (the `file_type` value), the file names that promise it,
// how it recognises them by content (its sniffer), its line in the read tool's description, the
// limits it offers as options, and how it reads a file for the `read` tool and for
// resources/read. What lists formats (the input schema's enum,
// the tool description, the command-line options, the checks of README and man page) is made
// from here, so adding a format is one folder plus one line in register_readers.cpp.
#include "mcpread/readers/access.hpp"
#include "mcpread/readers/cancel.hpp"
#include "mcpread/readers/classify.hpp"
#include "mcpread/readers/file_kind.hpp"
#include "mcpread/readers/outcome.hpp"
#include "mcpread/readers/read.hpp"
#include "mcpread/readers/resources.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace mcpread::readers::zip_head {
struct ZipHead;  // readers/src/package/zip_head.hpp
}  // namespace mcpread::readers::zip_head

namespace mcpread::readers {

// One read of one file through the `read` tool.
struct ReaderCall {
  const OpenedFile& file;
  const Classification& classification;
  FileKind kind;  // what the file is read as: its classification, or what file_type asked for
  const ReadRequest& request;
  const ReadLimits& limits;
  const CancelToken& cancel;
};

// One read of one file through resources/read (whole file, no paging arguments).
struct ResourceCall {
  const OpenedFile& file;
  const Classification& classification;
  std::string_view head;  // the file's first bytes, already read for classification
  const ReadLimits& limits;
  const CancelToken& cancel;
  const Wording& wording;  // how the contents' notes say what to read next
};

// A file name extension that promises the reader's kind, and the MIME type it implies.
struct ExtensionClaim {
  std::string_view extension;  // lower case, without the dot
  std::string_view mime;
};

// What a reader's sniffer looks at: the file's first bytes (up to 64 KiB), its name's extension
// (lower case, without the dot) and whether the first 16 KiB read as clean UTF-8 text.
struct SniffInput {
  std::span<const unsigned char> head;
  std::string_view extension;
  bool clean_text = false;
  // The head read as the start of a zip package: scanned once, on the first call, for all the
  // zip-based formats' sniffers (DOCX, ODT, XLSX, ODS, PPTX, ODP, EPUB).
  const zip_head::ZipHead& zip() const;
  mutable std::shared_ptr<const zip_head::ZipHead> zip_scanned = {};  // zip()'s, once scanned
};

// What a sniffer recognised: the file is of the reader's kind, with this MIME type.
struct Sniffed {
  std::string_view mime;
  std::string_view description;  // "PNG image": how messages name what the bytes are
  // The signature sits where the format puts it (at the start, a zip's first entry); false for
  // a guess (a "%PDF-" found further in, a zip only its name calls a Word document). A sniffer's
  // anchored answer wins over another's guess, whatever the registration order.
  bool anchored = true;
};

// A limit of the reader offered as an option: `--name N` and MCP_READ_<NAME>.
struct ReaderOption {
  std::string_view name;  // "--pdf-max-pages"
  std::string_view help;  // "PDF pages per call"
  std::uint64_t min = 0;
  std::uint64_t max = UINT64_MAX;
  std::uint64_t (*get)(const ReadLimits&) = nullptr;
  void (*set)(ReadLimits&, std::uint64_t) = nullptr;
};

// The member a path of member pointers leads to: member_at<&A::b, &B::c>(a) is a.b.c.
template <auto First, auto... Rest>
constexpr auto& member_at(auto& object) {
  if constexpr (sizeof...(Rest) == 0) return object.*First;
  else return member_at<Rest...>(object.*First);
}

// A ReaderOption over one field of ReadLimits (`&ReadLimits::pdf_max_pages`) or of one of its
// parts (`&ReadLimits::image, &ImageLimits::max_edge`).
template <auto... Path>
ReaderOption limit_option(std::string_view name, std::string_view help, std::uint64_t min,
                          std::uint64_t max) {
  return ReaderOption{name, help, min, max,
                      [](const ReadLimits& l) { return static_cast<std::uint64_t>(member_at<Path...>(l)); },
                      [](ReadLimits& l, std::uint64_t v) {
                        auto& field = member_at<Path...>(l);
                        field = static_cast<std::remove_reference_t<decltype(field)>>(v);
                      }};
}

struct Reader {
  FileKind kind = FileKind::binary;
  std::string_view article = {};  // "a PDF document": how messages name such a file
  std::string_view noun = {};     // "PDFs": how lists of formats name them
  // What is specific to it, in few words, for the read tool's description, from the limits in
  // force: what it sends, what `offset`/`limit`/`pages` count. The description prints it after
  // the kind ("- pdf: ..."), once for all the readers that give the same words ("- docx, odt:
  // ..."); none when null or empty (a reading another line already names, like json).
  std::string (*describe)(const ReadLimits&) = nullptr;
  // What `offset` and `limit` count in its answers when not lines ("cell", "paragraph", "row",
  // "entry"): the input schema's description of `offset` names it once for every reader.
  std::string_view counts = {};
  bool selectable = true;  // file_type may ask for it
  std::vector<ExtensionClaim> extensions = {};
  // Recognises the reader's files by their content (magic bytes); null: the name decides, or
  // the file is text. Sniffers run in registration order before libmagic.
  std::optional<Sniffed> (*sniff)(const SniffInput&) = nullptr;
  // Kinds asked for with file_type that this reader still serves for files of its own kind
  // (a PDF asked for as text gives its pages' text, as image its rendered pages).
  std::vector<FileKind> also_serves = {};
  bool reads_columns = false;  // the `column` argument applies (lines of text)
  // Its files are text (HTML): a text file named with one of its extensions is of its kind, and
  // file_type="text" reads the source with the text reader.
  bool text_based = false;
  std::vector<ReaderOption> options = {};
  ReadOutcome (*read)(const ReaderCall&) = nullptr;
  ResourceReadResult (*resource)(const ResourceCall&) = nullptr;  // null: not served as a resource
  // Reads a path that goes on past one of its files ("/data/a.zip/docs/x.txt": a member of an
  // archive): the answer when the file is of its kind, nullopt when not, so that the path's own
  // error stands. Null: its files hold no others.
  std::optional<ReadOutcome> (*read_inside)(const Roots&, const PathInsideFile&, const ReadRequest&,
                                            const ReadLimits&, const CancelToken&) = nullptr;
  // Drops what the reader keeps between calls (its cache), returning the bytes it held: called by
  // release_caches() when the server has been idle. Null: it keeps nothing.
  std::size_t (*release)() = nullptr;
};

class ReaderRegistry {
 public:
  // Each kind and each extension is registered once; a second registration is a programming
  // error, caught by the registry's tests: refused (false), the first stays. A reader must read
  // and name itself (`read`, `article`, `noun`), claim extensions in lower case without the dot
  // and offer options with a name, a getter and a setter (asserted).
  [[nodiscard]] bool add(Reader reader);
  const Reader* find(FileKind kind) const;
  const Reader* find(std::string_view kind_name) const;
  // The reader an extension promises, with the claim (its MIME type); null when none does.
  const Reader* for_extension(std::string_view extension, const ExtensionClaim** claim = nullptr) const;
  const std::vector<Reader>& readers() const { return readers_; }
  // The first reader whose sniffer anchors the bytes, else the first that guesses; null when no
  // sniffer recognises them.
  const Reader* sniff(const SniffInput& input, Sniffed* sniffed) const;

 private:
  std::vector<Reader> readers_;
};

// mcp-read's readers added to `registry` (register_readers.cpp); false when one was refused.
[[nodiscard]] bool register_readers(ReaderRegistry& registry);

// mcp-read's readers, registered once on first use (a refused registration aborts: a programming
// error no run may hide).
const ReaderRegistry& reader_registry();

// The registered readers' nouns in registration order, joined by ", " ("text, JSON, images, PDFs,
// …"), or only those of the readers served as resources: how instructions, help and messages
// list the formats.
std::string reader_nouns(bool resources_only = false);

// "an image", "a PDF document"; "a binary file" for binary and kinds no reader registers.
std::string_view article(FileKind kind);

}  // namespace mcpread::readers
