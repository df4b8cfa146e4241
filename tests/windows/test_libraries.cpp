// The C libraries scripts/windows/deps.sh cross-builds, checked where the readers will use them:
// under Wine, before the readers themselves are built for Windows. libmagic with its TRE regex
// shim and Debian's database, uchardet, nettle, pugixml, libdeflate, the encoding_rs shim, and
// libvips-42.dll from npm, libzip-4.dll, libxml2-2.dll, libarchive-13.dll and libfreexl-1.dll.
#include <doctest/doctest.h>
#include <libdeflate.h>
#include <magic.h>
#include <nettle/sha2.h>
#include <pugixml.hpp>
#include <uchardet/uchardet.h>

#include "charset/whatwg_decoder.hpp"
#include "mcpread/common/lazy_library.hpp"

#include <array>
#include <string>
#include <string_view>

namespace {

std::string mime_of(magic_t m, std::string_view bytes) {
  const char* type = magic_buffer(m, bytes.data(), bytes.size());
  return type != nullptr ? type : std::string("error: ") + magic_error(m);
}

}  // namespace

TEST_CASE("windows libraries: libmagic names types from Debian's database") {
  magic_t m = magic_open(MAGIC_MIME_TYPE);
  REQUIRE(m != nullptr);
  REQUIRE_MESSAGE(magic_load(m, MCPREAD_TEST_MAGIC_DB) == 0, magic_error(m));
  using namespace std::string_view_literals;
  CHECK(mime_of(m, "%PDF-1.7\n%\xE2\xE3\xCF\xD3\n1 0 obj\n<< >>\nendobj\n"sv) == "application/pdf");
  CHECK(mime_of(m, "\x89PNG\r\n\x1A\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x02\0\0\0"sv) == "image/png");
  CHECK(mime_of(m, "Plain words on a line.\nAnd another.\n"sv) == "text/plain");
  // A regex-driven entry (TRE through the gnurx shim): a shell script's #! line.
  CHECK(mime_of(m, "#!/bin/sh\necho hello\n"sv) == "text/x-shellscript");
  magic_close(m);
}

TEST_CASE("windows libraries: uchardet tells UTF-8 from a Latin-1 text") {
  auto detect = [](std::string_view text) {
    uchardet_t d = uchardet_new();
    uchardet_handle_data(d, text.data(), text.size());
    uchardet_data_end(d);
    std::string name = uchardet_get_charset(d);
    uchardet_delete(d);
    return name;
  };
  CHECK(detect("Caf\xC3\xA9 cr\xC3\xA8me br\xC3\xBBl\xC3\xA9""e, na\xC3\xAFve \xC3\xA0 la fran\xC3\xA7""aise") == "UTF-8");
  CHECK(detect("Le caf\xE9 est tr\xE8s bon, la cr\xE8me br\xFBl\xE9""e aussi, et le g\xE2teau \xE0 "
               "la fran\xE7""aise est d\xE9licieux.") == "ISO-8859-1");
}

TEST_CASE("windows libraries: nettle, pugixml and libdeflate work as on Linux") {
  sha256_ctx ctx;
  sha256_init(&ctx);
  sha256_update(&ctx, 3, reinterpret_cast<const std::uint8_t*>("abc"));
  std::array<std::uint8_t, SHA256_DIGEST_SIZE> digest{};
  sha256_digest(&ctx, digest.size(), digest.data());
  CHECK(digest[0] == 0xBA);  // SHA-256("abc") = ba7816bf...
  CHECK(digest[31] == 0xAD);

  pugi::xml_document doc;
  REQUIRE(doc.load_string("<w:p xmlns:w='x'><w:t>text</w:t></w:p>"));
  CHECK(std::string(doc.child("w:p").child("w:t").text().get()) == "text");

  CHECK(libdeflate_crc32(0, "123456789", 9) == 0xCBF43926u);  // the CRC-32 check value
}

TEST_CASE("windows libraries: the encoding_rs shim decodes as the WHATWG standard says") {
  using mcpread::readers::charset_detail::WhatwgDecoder;
  using mcpread::readers::charset_detail::whatwg_encoding_of;
  CHECK(whatwg_encoding_of("CP932") == "Shift_JIS");
  auto decode = [](std::string_view encoding, std::string_view bytes) {
    auto decoder = WhatwgDecoder::open(encoding);
    REQUIRE(decoder != nullptr);
    std::string out;
    decoder->convert(bytes, out, true);
    return out;
  };
  CHECK(decode("windows-1252", "\x80 5") == "\xE2\x82\xAC 5");                  // € 5
  CHECK(decode("Shift_JIS", "\x93\xFA\x96\x7B") == "\xE6\x97\xA5\xE6\x9C\xAC");  // 日本
  // The standard's own answer where libraries differ (REFERENCE.md): big5 0x8F 0xFE is U+8D77.
  CHECK(decode("Big5", "\x8F\xFE") == "\xE8\xB5\xB7");
  CHECK(decode("UTF-16LE", std::string_view("A\0", 2)) == "A");
}

TEST_CASE("windows libraries: libvips-42.dll from npm loads beside the .exe as libvips.so.42") {
  // The readers name libvips by its Linux soname; on Windows that becomes libvips-42.dll, looked
  // for in the executable's folder, where the bundle will put it.
  struct Vips {
    int (*init)(const char*) = nullptr;
    int (*version)(int) = nullptr;
    void (*object_unref)(void*) = nullptr;  // GLib's, exported by the same DLL (vips_api.cpp)
  };
  mcpread::LazyLibrary<Vips> lib(
      {.needs = "Reading images needs libvips", .candidates = {"libvips.so.42"}},
      [](mcpread::SymbolBinder& bind, Vips& v) {
        return bind(&v.init, "vips_init") && bind(&v.version, "vips_version") &&
               bind(&v.object_unref, "g_object_unref");
      });
  std::string error;
  const Vips* vips = lib.get(&error);
  REQUIRE_MESSAGE(vips != nullptr, error);
  CHECK(vips->init("mcpread_platform_tests") == 0);
  CHECK(vips->version(0) == 8);
  CHECK(vips->version(1) == 18);
}

TEST_CASE("windows libraries: libzip-4.dll and libxml2-2.dll load by the readers' sonames") {
  struct Zip {
    const char* (*version)() = nullptr;
  };
  mcpread::LazyLibrary<Zip> zip(
      {.needs = "Reading office documents needs libzip", .candidates = {"libzip.so.4"}},
      [](mcpread::SymbolBinder& bind, Zip& z) { return bind(&z.version, "zip_libzip_version"); });
  std::string error;
  const Zip* z = zip.get(&error);
  REQUIRE_MESSAGE(z != nullptr, error);
  CHECK(std::string(z->version()) == "1.7.3");

  struct Xml {
    void* (*read_memory)(const char*, int, const char*, const char*, int) = nullptr;
    void (*free_doc)(void*) = nullptr;
  };
  mcpread::LazyLibrary<Xml> xml(
      {.needs = "Reading spreadsheets needs libxml2", .candidates = {"libxml2.so.2"}},
      [](mcpread::SymbolBinder& bind, Xml& x) {
        return bind(&x.read_memory, "xmlReadMemory") && bind(&x.free_doc, "xmlFreeDoc");
      });
  const Xml* x = xml.get(&error);
  REQUIRE_MESSAGE(x != nullptr, error);
  const std::string good = "<sheet><row r='1'/></sheet>", bad = "<sheet><row></sheet>";
  constexpr int quiet = 1 << 5 | 1 << 6;  // XML_PARSE_NOERROR | XML_PARSE_NOWARNING
  void* doc = x->read_memory(good.data(), static_cast<int>(good.size()), "good.xml", nullptr, quiet);
  CHECK(doc != nullptr);
  if (doc != nullptr) x->free_doc(doc);
  CHECK(x->read_memory(bad.data(), static_cast<int>(bad.size()), "bad.xml", nullptr, quiet) == nullptr);
}

TEST_CASE("windows libraries: libarchive-13.dll loads by its soname, with every filter built in") {
  struct Archive {
    const char* (*version_details)() = nullptr;
  };
  mcpread::LazyLibrary<Archive> archive(
      {.needs = "Reading archives needs libarchive", .candidates = {"libarchive.so.13"}},
      [](mcpread::SymbolBinder& bind, Archive& a) {
        return bind(&a.version_details, "archive_version_details");
      });
  std::string error;
  const Archive* a = archive.get(&error);
  REQUIRE_MESSAGE(a != nullptr, error);
  const std::string details = a->version_details();  // "libarchive 3.6.2 zlib/1.2.13 liblzma/5.4.1 ..."
  CAPTURE(details);
  CHECK(details.starts_with("libarchive 3.6.2"));
  for (const char* part : {"zlib/", "liblzma/", "bz2lib/", "libzstd/"}) CHECK(details.find(part) != std::string::npos);
}

TEST_CASE("windows libraries: libfreexl-1.dll loads by its soname, freexl 1.0.6") {
  struct Freexl {
    const char* (*version)() = nullptr;
  };
  mcpread::LazyLibrary<Freexl> freexl(
      {.needs = "Reading Excel 97-2003 workbooks needs libfreexl", .candidates = {"libfreexl.so.1"}},
      [](mcpread::SymbolBinder& bind, Freexl& f) { return bind(&f.version, "freexl_version"); });
  std::string error;
  const Freexl* f = freexl.get(&error);
  REQUIRE_MESSAGE(f != nullptr, error);
  CHECK(std::string(f->version()) == "1.0.6");
}
