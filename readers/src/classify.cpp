#include "mcpread/readers/classify.hpp"

#include <magic.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <cstring>
#include <mutex>

#include "mcpread/common/ascii.hpp"
#include "mcpread/readers/charset.hpp"
#include "mcpread/readers/registry.hpp"
#include "mcpread/readers/utf8.hpp"
#include "byte_signatures.hpp"
#include "install_tree.hpp"

namespace mcpread::readers {
namespace {

using sig::Bytes;

// What a file name's extension promises, from the readers' registrations.
struct ExtensionPromise {
  FileKind kind;
  std::string_view mime;
};

std::optional<ExtensionPromise> promised_by(std::string_view ext) {
  const ExtensionClaim* claim = nullptr;
  const Reader* reader = ext.empty() ? nullptr : reader_registry().for_extension(ext, &claim);
  if (reader == nullptr) return std::nullopt;
  return ExtensionPromise{reader->kind, claim->mime};
}

struct TextMime {
  std::string_view ext;
  std::string_view mime;
};

// The MIME types of text files no reader claims (a reader's claims, .html or .csv, come from
// the registry first: mime_for_name).
constexpr auto kTextMimes = std::to_array<TextMime>({
    {"txt", "text/plain"}, {"text", "text/plain"}, {"log", "text/plain"},
    {"json", "application/json"}, {"jsonl", "application/x-ndjson"},
    {"ndjson", "application/x-ndjson"}, {"md", "text/markdown"}, {"markdown", "text/markdown"},
    {"css", "text/css"}, {"scss", "text/x-scss"}, {"js", "text/javascript"},
    {"mjs", "text/javascript"}, {"cjs", "text/javascript"}, {"jsx", "text/javascript"},
    {"ts", "text/x-typescript"}, {"mts", "text/x-typescript"}, {"cts", "text/x-typescript"},
    {"tsx", "text/x-typescript"}, {"py", "text/x-python"}, {"pyi", "text/x-python"},
    {"c", "text/x-c"}, {"h", "text/x-c"}, {"cpp", "text/x-c++"}, {"cc", "text/x-c++"},
    {"cxx", "text/x-c++"}, {"hpp", "text/x-c++"}, {"hh", "text/x-c++"}, {"hxx", "text/x-c++"},
    {"ipp", "text/x-c++"}, {"inl", "text/x-c++"}, {"xml", "application/xml"}, {"xsd", "application/xml"},
    {"xsl", "application/xml"}, {"plist", "application/xml"}, {"yaml", "application/yaml"},
    {"yml", "application/yaml"}, {"toml", "application/toml"}, {"sh", "text/x-shellscript"},
    {"bash", "text/x-shellscript"}, {"zsh", "text/x-shellscript"}, {"rs", "text/x-rust"},
    {"go", "text/x-go"}, {"java", "text/x-java"}, {"kt", "text/x-kotlin"},
    {"swift", "text/x-swift"}, {"rb", "text/x-ruby"}, {"php", "text/x-php"}, {"pl", "text/x-perl"},
    {"pm", "text/x-perl"}, {"lua", "text/x-lua"}, {"sql", "application/sql"},
    {"diff", "text/x-diff"}, {"patch", "text/x-diff"}, {"tex", "text/x-tex"},
    {"rst", "text/x-rst"}, {"cs", "text/x-csharp"}, {"scala", "text/x-scala"}, {"r", "text/x-r"},
    {"cmake", "text/x-cmake"}, {"ini", "text/plain"}, {"cfg", "text/plain"},
    {"conf", "text/plain"},
});

using common::ascii_lower;

std::string_view base_name(std::string_view name) {
  const auto slash = name.rfind('/');
  return slash == std::string_view::npos ? name : name.substr(slash + 1);
}

// Lower-cased extension; none for ".bashrc" or "Makefile".
std::string extension_of(std::string_view name) {
  name = base_name(name);
  const auto dot = name.rfind('.');
  if (dot == std::string_view::npos || dot == 0 || dot + 1 == name.size()) return {};
  return ascii_lower(name.substr(dot + 1));
}

std::string_view text_mime_for(std::string_view file_name, std::string_view ext) {
  for (const auto& t : kTextMimes)
    if (t.ext == ext) return t.mime;
  const std::string base = ascii_lower(base_name(file_name));
  if (base == "makefile" || base == "gnumakefile") return "text/x-makefile";
  if (base == "dockerfile" || base == "containerfile") return "text/x-dockerfile";
  return {};
}

// One libmagic handle for the process, loaded on first use (startup stays fast) and asked under a
// lock: a handle is not thread-safe, and each holds its own copy of the 8 MB database, so a pair
// per thread cost 16 MB for every thread that met a file needing it. Only files that no signature
// and no text scan settle get here. A failed load leaves the handle null: callers get empty
// answers.
class Magic {
 public:
  struct Answer {
    std::string mime;
    std::string description;
  };
  Answer ask(Bytes b) {
    std::lock_guard lock(mutex_);
    if (!loaded_) {
      loaded_ = true;
      handle_ = open_handle();
    }
    if (handle_ == nullptr) return {};
    Answer a;
    if (magic_setflags(handle_, MAGIC_MIME_TYPE) == 0) a.mime = buffer(b);
    if (magic_setflags(handle_, MAGIC_NONE) == 0) a.description = buffer(b);
    return a;
  }

 private:
  static magic_t open_handle() {
    magic_t m = magic_open(MAGIC_NONE);
    // The database shipped beside the executable (share/misc/magic.mgc: the portable bundle, or
    // /usr/share/misc when installed in /usr) must match the libmagic linked in; $MAGIC, which
    // libmagic reads when given no path, still wins.
    const char* env = std::getenv("MAGIC");
    const std::string shipped = env != nullptr && *env != '\0' ? std::string() : installed_file("share/misc/magic.mgc");
    if (m != nullptr && magic_load(m, shipped.empty() ? nullptr : shipped.c_str()) != 0) {
      magic_close(m);
      m = nullptr;
    }
    return m;
  }
  std::string buffer(Bytes b) const {
    const char* r = magic_buffer(handle_, b.data(), b.size());
    std::string out;
    if (r != nullptr) utf8::append_sanitized(std::string_view(r).substr(0, 300), out);
    return out;
  }
  std::mutex mutex_;
  magic_t handle_ = nullptr;
  bool loaded_ = false;
};

Magic& magic() {
  static auto* instance = new Magic;  // never destroyed: a worker may still ask at exit
  return *instance;
}

struct TextScan {
  bool nul = false;
  bool ascii = true;
  bool utf8 = false;       // valid UTF-8, allowing a sequence cut at the end of the sample
  std::size_t controls = 0;  // C0 controls other than whitespace, backspace and escape; DEL
};

TextScan scan_text(Bytes b, std::uint64_t size) {
  TextScan s;
  std::size_t i = 0;
  // Printable ASCII runs 8 bytes at a time; only words holding a control or non-ASCII byte
  // are looked at byte by byte.
  constexpr std::uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
  for (;;) {
    while (i + 8 <= b.size()) {
      std::uint64_t w;
      std::memcpy(&w, b.data() + i, 8);
      if (((w | ((w - ones * 0x20) & ~w)) & highs) != 0) break;  // a byte >= 0x80 or < 0x20
      i += 8;
    }
    if (i >= b.size()) break;
    const std::size_t end = std::min(b.size(), i + 8);
    for (; i < end; ++i) {
      const unsigned char c = b[i];
      if (c == 0) s.nul = true;
      if (c >= 0x80) s.ascii = false;
      if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != '\v' &&
           c != '\b' && c != 0x1B) ||
          c == 0x7F)
        ++s.controls;
    }
  }
  std::size_t n = b.size();
  if (n < size) {  // the sample may end inside a character
    for (std::size_t back = 1; back <= 3 && back <= n; ++back) {
      const unsigned char c = b[n - back];
      if ((c & 0xC0) == 0x80) continue;
      const std::size_t need = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
      if (need > back) n -= back;
      break;
    }
  }
  s.utf8 = utf8::is_valid(std::string_view(reinterpret_cast<const char*>(b.data()), n));
  return s;
}

bool textual_mime(std::string_view m) {
  static constexpr auto kTextual = std::to_array<std::string_view>({
      "application/json", "application/xml", "application/javascript",
      "application/ecmascript", "application/x-javascript", "application/x-sh",
      "application/x-shellscript", "application/x-yaml", "application/yaml", "application/toml",
      "application/x-ndjson", "application/sql", "application/x-empty", "application/x-php",
      "application/x-perl", "application/x-ruby", "application/x-awk", "application/x-tex",
      "application/x-latex", "application/postscript", "application/x-wine-extension-ini",
      "application/csv", "application/x-subrip", "application/pgp-keys",
      "application/pgp-signature", "application/x-pem-file", "application/x-setupscript",
      "message/rfc822", "message/news", "application/x-bibtex-text-file"});
  if (m.starts_with("text/") || m.ends_with("+xml") || m.ends_with("+json")) return true;
  return std::find(kTextual.begin(), kTextual.end(), m) != kTextual.end();
}

Classification text(std::string_view file_name, std::string_view ext, std::string fallback_mime,
                    std::string description) {
  std::string_view mime = text_mime_for(file_name, ext);
  return {FileKind::text, mime.empty() ? std::move(fallback_mime) : std::string(mime),
          std::move(description), std::nullopt};
}

std::string_view bom_charset(Bytes b) {
  using sig::has_at;
  if (has_at(b, 0, "\xEF\xBB\xBF")) return "UTF-8";
  if (has_at(b, 0, std::string_view("\xFF\xFE\0\0", 4))) return "UTF-32LE";
  if (has_at(b, 0, std::string_view("\0\0\xFE\xFF", 4))) return "UTF-32BE";
  if (has_at(b, 0, "\xFF\xFE")) return "UTF-16LE";
  if (has_at(b, 0, "\xFE\xFF")) return "UTF-16BE";
  return {};
}

Classification detect(std::string_view file_name, std::string_view ext,
                      const std::optional<ExtensionPromise>& media, Bytes head, std::uint64_t size) {
  if (head.empty()) {  // nothing to look at: the name decides
    if (media && media->kind != FileKind::text)
      return {media->kind, std::string(media->mime), "empty", std::nullopt};
    return text(file_name, ext, "text/plain", "empty");
  }
  // Text or binary is decided on the first 16 KiB, as git decides on its first 8000 bytes;
  // the charset of a text file is detected later on a larger sample.
  constexpr std::size_t scan_bytes = 16 * 1024;
  const TextScan scan = scan_text(head.first(std::min(head.size(), scan_bytes)),
                                  head.size() > scan_bytes ? head.size() + 1 : size);
  const bool clean = !scan.nul && scan.utf8 && scan.controls * 50 <= head.size();

  // Each reader's signatures (magic bytes, a zip's entries, SVG among clean text).
  Sniffed sniffed;
  if (const Reader* r = reader_registry().sniff({head, ext, clean}, &sniffed))
    return {r->kind, std::string(sniffed.mime), std::string(sniffed.description), std::nullopt};
  if (auto bom = bom_charset(head); !bom.empty())
    return text(file_name, ext, "text/plain", std::string(bom) + " text, with byte-order mark");
  if (clean) return text(file_name, ext, "text/plain", scan.ascii ? "ASCII text" : "UTF-8 text");
  if (auto utf16 = utf16_without_bom(head); !utf16.empty())
    return text(file_name, ext, "text/plain", utf16 + " text, without byte-order mark");

  auto [mime, description] = magic().ask(head);
  if (mime == "image/svg+xml")
    return {FileKind::image, std::move(mime), std::move(description), std::nullopt};
  if (textual_mime(mime))
    return text(file_name, ext, std::move(mime),
                description.empty() ? std::string("text") : std::move(description));
  // Images libmagic knows beyond the signatures (PNM, OpenEXR, Radiance HDR, FITS, XCF...): the
  // image reader asks libvips for a loader, and says what failed when none reads them.
  if (mime.starts_with("image/") || description.find("image data") != std::string::npos)
    return {FileKind::image, std::move(mime), std::move(description), std::nullopt};
  // Text before binary: libmagic's weaker magic (a DOS .COM program is any file starting with
  // certain bytes) takes Korean CP949 text for a program; a charset that decodes the sample
  // cleanly, with confidence, wins over such a guess.
  if (const DetectedCharset cs = text_charset_of_binary(head); !cs.name.empty()) {
    std::string what = "text in " + describe_charset(cs);
    if (!description.empty() && description != "data") what += " (libmagic: " + description + ")";
    return text(file_name, ext, "text/plain", std::move(what));
  }
  // Legacy 8-bit and multibyte charsets (Latin-1, GBK, Shift-JIS...) that libmagic calls data.
  if ((mime.empty() || mime == "application/octet-stream") && !scan.nul &&
      scan.controls * 10 < head.size())
    return text(file_name, ext, "text/plain",
                description.empty() || description == "data"
                    ? std::string("text in a non-UTF-8 character set")
                    : std::move(description));
  return {FileKind::binary, mime.empty() ? std::string("application/octet-stream") : std::move(mime),
          description.empty() ? std::string("data") : std::move(description), std::nullopt};
}

}  // namespace

std::string_view mime_for_name(std::string_view file_name) {
  const std::string ext = extension_of(file_name);
  if (const auto media = promised_by(ext)) return media->mime;
  return text_mime_for(file_name, ext);
}

Classification classify(std::string_view file_name, std::span<const unsigned char> head,
                        std::uint64_t size) {
  const std::string ext = extension_of(file_name);
  const auto media = promised_by(ext);
  Classification c = detect(file_name, ext, media, head, size);
  if (media && c.kind == FileKind::text && media->kind != c.kind) {
    const Reader* reader = reader_registry().find(media->kind);
    if (reader != nullptr && reader->text_based) {  // page.html: text, read as a page
      c.kind = media->kind;
      c.mime = std::string(media->mime);
    }
  }
  if (media && media->kind != c.kind) c.extension_kind = media->kind;
  return c;
}

}  // namespace mcpread::readers
