#include "mobi/mobi_book.hpp"

#include "byte_order.hpp"

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#if defined(_WIN32)
namespace mcpread::readers::mobi {

bool load_libmobi(std::string* error) {
  *error = "the Windows build of mcp-read does not include libmobi, which reads them; convert the book to EPUB "
           "(calibre does) and read that, or use mcp-read on Linux";
  return false;
}

bool parse_mobi(std::string_view, MobiBook*, std::string* error) { return load_libmobi(error); }

}  // namespace mcpread::readers::mobi
#else
#include "mcpread/common/lazy_library.hpp"

#include <cstdio>

namespace mcpread::readers::mobi {
namespace {

// libmobi's C interface (mobi.h, 0.11), declared here so that building needs no libmobi headers:
// Debian bullseye, where the portable bundle is built, has no libmobi. Only the structures walked
// here are declared, and only their leading members read; MOBIData stays opaque.
struct MobiPart {
  std::size_t uid;
  int type;  // MOBIFiletype
  std::size_t size;
  unsigned char* data;
  MobiPart* next;
};
struct MobiRawml {
  std::size_t version;
  void* fdst;
  void* skel;
  void* frag;
  void* guide;
  void* ncx;
  void* orth;
  void* infl;
  MobiPart* flow;
  MobiPart* markup;
  MobiPart* resources;
};
struct MobiData;
// MOBIFiletype's values used here.
constexpr int kHtml = 1, kJpg = 6, kGif = 7, kPng = 8, kBmp = 9;
// MOBI_RET's values told apart.
constexpr int kSuccess = 0, kDataCorrupt = 3, kEncrypted = 5, kUnsupported = 6, kMallocFailed = 7;

struct Api {
  MobiData* (*init)() = nullptr;
  void (*free_data)(MobiData*) = nullptr;
  int (*load_file)(MobiData*, FILE*) = nullptr;
  bool (*is_encrypted)(const MobiData*) = nullptr;
  bool (*is_replica)(const MobiData*) = nullptr;
  bool (*is_kf8)(const MobiData*) = nullptr;
  bool (*exists_mobiheader)(const MobiData*) = nullptr;
  MobiRawml* (*init_rawml)(const MobiData*) = nullptr;
  int (*parse_rawml)(MobiRawml*, const MobiData*) = nullptr;
  void (*free_rawml)(MobiRawml*) = nullptr;
  char* (*title)(const MobiData*) = nullptr;
  char* (*author)(const MobiData*) = nullptr;
  char* (*publisher)(const MobiData*) = nullptr;
};

const Api* api(std::string* error) {
  static const LazyLibrary<Api> lib(
      {.needs = "reading MOBI and Kindle e-books needs libmobi (Debian package libmobi0)",
       .candidates = {"libmobi.so.0"}},
      [](SymbolBinder& bind, Api& a) {
        return bind(&a.init, "mobi_init") && bind(&a.free_data, "mobi_free") && bind(&a.load_file, "mobi_load_file") &&
               bind(&a.is_encrypted, "mobi_is_encrypted") && bind(&a.is_replica, "mobi_is_replica") &&
               bind(&a.is_kf8, "mobi_is_kf8") && bind(&a.exists_mobiheader, "mobi_exists_mobiheader") &&
               bind(&a.init_rawml, "mobi_init_rawml") && bind(&a.parse_rawml, "mobi_parse_rawml") &&
               bind(&a.free_rawml, "mobi_free_rawml") && bind(&a.title, "mobi_meta_get_title") &&
               bind(&a.author, "mobi_meta_get_author") && bind(&a.publisher, "mobi_meta_get_publisher");
      });
  return lib.get(error);
}

// A string libmobi allocated, taken and freed.
std::string taken(char* s) {
  std::string out = s == nullptr ? std::string() : std::string(s);
  std::free(s);  // NOLINT(cppcoreguidelines-no-malloc): libmobi's allocation
  return out;
}

std::string_view image_extension(int type) {
  switch (type) {
    case kJpg: return "jpg";
    case kGif: return "gif";
    case kPng: return "png";
    case kBmp: return "bmp";
    default: return {};
  }
}

// The name libmobi's link reconstruction gives a resource in the markup ("resource00012.jpg").
std::string resource_name(std::size_t uid, std::string_view extension) {
  char digits[32];
  std::snprintf(digits, sizeof digits, "resource%05zu.", uid);
  return digits + std::string(extension);
}

// PalmDOC (TEXtREAd) books hold plain text: escaped and its lines kept, it reads as HTML.
std::string text_as_html(std::string_view text) {
  std::string out = "<html><body><p>";
  for (char c : text) {
    switch (c) {
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '&': out += "&amp;"; break;
      case '\r': break;
      case '\n': out += "<br>"; break;
      default: out += c;
    }
  }
  return out + "</p></body></html>";
}

std::string load_error(int code) {
  switch (code) {
    case kUnsupported: return "libmobi does not know this kind of Palm database";
    case kMallocFailed: return "its records claim more memory than can be had";
    case kEncrypted: return "it is DRM-protected (encrypted), and cannot be read without the key of the device it was sold for";
    case kDataCorrupt:
    default: return "libmobi cannot parse it (error " + std::to_string(code) + "): it is damaged or truncated";
  }
}

struct DataHandle {
  const Api& a;
  MobiData* m;
  ~DataHandle() { a.free_data(m); }
};
struct RawmlHandle {
  const Api& a;
  MobiRawml* r;
  ~RawmlHandle() {
    if (r != nullptr) a.free_rawml(r);
  }
};

}  // namespace

bool load_libmobi(std::string* error) { return api(error) != nullptr; }

bool parse_mobi(std::string_view bytes, MobiBook* book, std::string* error) {
  const Api* a = api(error);
  if (a == nullptr) return false;
  if (bytes.size() < 78) return *error = "it is too short for a Palm database header (78 bytes)", false;
  DataHandle data{*a, a->init()};
  if (data.m == nullptr) return *error = "libmobi cannot start", false;
  // A FILE over the bytes in memory: libmobi 0.11 loads only from a FILE.
  FILE* file = ::fmemopen(const_cast<char*>(bytes.data()), bytes.size(), "rb");
  if (file == nullptr) return *error = std::string("fmemopen failed: ") + std::strerror(errno), false;
  const int loaded = a->load_file(data.m, file);
  std::fclose(file);
  if (loaded != kSuccess) return *error = load_error(loaded), false;
  if (a->is_encrypted(data.m)) return *error = load_error(kEncrypted), false;
  if (a->is_replica(data.m))
    return *error = "it is a Kindle Print Replica book (a PDF inside a Kindle file), which libmobi does not read", false;
  book->kf8 = a->is_kf8(data.m);
  const bool palmdoc = !a->exists_mobiheader(data.m);
  book->title = taken(a->title(data.m));
  book->author = taken(a->author(data.m));
  book->publisher = taken(a->publisher(data.m));

  RawmlHandle rawml{*a, a->init_rawml(data.m)};
  if (rawml.r == nullptr) return *error = "libmobi cannot start on its text", false;
  const int parsed = a->parse_rawml(rawml.r, data.m);
  if (parsed != kSuccess) return *error = load_error(parsed), false;
  std::size_t html_bytes = 0, image_bytes = 0;
  for (const MobiPart* p = rawml.r->markup; p != nullptr; p = p->next) {
    if (p->type != kHtml || p->data == nullptr) continue;
    html_bytes += p->size;
    if (html_bytes > kMaxHtmlBytes)
      return *error = "its text is over " + std::to_string(kMaxHtmlBytes >> 20) + " MiB of markup", false;
    const std::string_view markup(reinterpret_cast<const char*>(p->data), p->size);
    book->html.push_back(palmdoc ? text_as_html(markup) : std::string(markup));
  }
  for (const MobiPart* p = rawml.r->resources; p != nullptr; p = p->next) {
    const std::string_view extension = image_extension(p->type);
    if (extension.empty() || p->data == nullptr) continue;
    if (image_bytes + p->size > kMaxImageBytes) {
      ++book->images_left_out;
      continue;
    }
    image_bytes += p->size;
    book->images.emplace(resource_name(p->uid, extension), std::string(reinterpret_cast<const char*>(p->data), p->size));
  }
  return true;
}

}  // namespace mcpread::readers::mobi
#endif

namespace mcpread::readers::mobi {
namespace {

// The message: records of a tag byte, a 4-byte length (little-endian) and the bytes.
enum Tag : char { kTitle = 't', kAuthor = 'a', kPublisher = 'p', kKf8 = 'k', kHtmlPart = 'h', kImage = 'i', kLeftOut = 'n' };

void put(std::string& out, char tag, std::string_view bytes) {
  const auto n = static_cast<std::uint32_t>(bytes.size());
  out += tag;
  for (int shift = 0; shift < 32; shift += 8) out += static_cast<char>((n >> shift) & 0xFF);
  out += bytes;
}

}  // namespace

std::string to_message(const MobiBook& book) {
  std::string out;
  put(out, kTitle, book.title);
  put(out, kAuthor, book.author);
  put(out, kPublisher, book.publisher);
  if (book.kf8) put(out, kKf8, {});
  for (const std::string& part : book.html) put(out, kHtmlPart, part);
  for (const auto& [name, bytes] : book.images) put(out, kImage, name + '\0' + bytes);
  put(out, kLeftOut, std::to_string(book.images_left_out));
  return out;
}

bool from_message(std::string_view message, MobiBook* book) {
  while (!message.empty()) {
    if (message.size() < 5) return false;
    const std::uint32_t n = bytes::le32(message, 1);
    if (message.size() - 5 < n) return false;
    const char tag = message[0];
    const std::string_view bytes = message.substr(5, n);
    message.remove_prefix(5 + std::size_t{n});
    switch (tag) {
      case kTitle: book->title = bytes; break;
      case kAuthor: book->author = bytes; break;
      case kPublisher: book->publisher = bytes; break;
      case kKf8: book->kf8 = true; break;
      case kHtmlPart: book->html.emplace_back(bytes); break;
      case kImage: {
        const std::size_t nul = bytes.find('\0');
        if (nul == std::string_view::npos) return false;
        book->images.emplace(std::string(bytes.substr(0, nul)), std::string(bytes.substr(nul + 1)));
        break;
      }
      case kLeftOut: book->images_left_out = static_cast<std::size_t>(std::strtoull(std::string(bytes).c_str(), nullptr, 10)); break;
      default: return false;
    }
  }
  return true;
}

}  // namespace mcpread::readers::mobi
