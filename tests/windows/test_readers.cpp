// The readers library's Windows side (run under Wine by scripts/windows/prove.sh): the roots
// check of access_windows.cpp on real files, names beyond ASCII through std::filesystem, file
// identities from the handle, file URIs with drive letters, and the code pages that stand in for
// iconv (charset/codepage_iconv.cpp).
#include <doctest/doctest.h>

#include <fstream>
#include <string>
#include <tuple>
#include <variant>
#include <vector>

#include "file_io.hpp"
#include "mcpread/common/platform.hpp"
#include "mcpread/readers/access.hpp"
#include "mcpread/readers/charset.hpp"
#include "mcpread/readers/listing.hpp"
#include "mcpread/readers/resources.hpp"

using namespace mcpread::readers;
namespace fs = std::filesystem;
using mcpread::platform::path_from_utf8;
using mcpread::platform::path_to_utf8;

namespace {

// A scratch folder under the system's temporary folder, removed afterwards.
struct Scratch {
  std::string dir;
  Scratch() {
    const fs::path base = fs::temp_directory_path() / ("mcp-read-test-" + std::to_string(::GetCurrentProcessId()));
    fs::remove_all(base);
    fs::create_directories(base / "root" / "sub");
    dir = path_to_utf8(base);
  }
  ~Scratch() {
    std::error_code ec;
    fs::remove_all(path_from_utf8(dir), ec);
  }
  [[nodiscard]] std::string root() const { return dir + "\\root"; }
  void write(const std::string& relative, const std::string& bytes) const {
    std::ofstream(path_from_utf8(dir + "\\" + relative), std::ios::binary) << bytes;
  }
};

Roots roots_of(const std::string& dir) {
  Roots roots;
  std::string error;
  REQUIRE_MESSAGE(Roots::from_paths({dir}, &roots, &error), error);
  return roots;
}

std::string refusal(const Roots& roots, const std::string& path) {
  const AccessResult r = open_in_roots(roots, path);
  const auto* e = std::get_if<AccessError>(&r);
  return e == nullptr ? std::string("(opened)") : e->message;
}

std::string decoded(const std::string& charset, const std::string& bytes) {
  Utf8Converter c(charset);
  std::string out;
  if (!c.ok()) return "(no decoder: " + c.error() + ")";
  c.convert(bytes, out, true);
  return out;
}

}  // namespace

TEST_CASE("windows access: files inside the root open, by any spelling Windows accepts") {
  Scratch s;
  s.write("root\\Notes.txt", "hello\n");
  s.write("root\\sub\\inner.txt", "inner\n");
  const Roots roots = roots_of(s.root());
  SUBCASE("absolute, another case, forward slashes, relative, through sub\\..") {
    const std::vector<std::string> paths = {s.root() + "\\Notes.txt", s.root() + "\\NOTES.TXT", "Notes.txt",
                                            "sub\\..\\Notes.txt", s.root() + "/sub/inner.txt"};
    for (const std::string& path : paths) {
      CAPTURE(path);
      const AccessResult r = open_in_roots(roots, path);
      const auto* f = std::get_if<OpenedFile>(&r);
      REQUIRE(f != nullptr);
      CHECK(f->st.st_size > 0);
      CHECK(path_to_utf8(f->path).find(s.root()) == 0);
    }
  }
  SUBCASE("a folder is a directory target, listed with its entries") {
    const AccessResult r = open_in_roots(roots, s.root());
    const auto* d = std::get_if<DirectoryTarget>(&r);
    REQUIRE(d != nullptr);
    const ReadOutcome listing = list_directory(d->path);
    const auto& text = std::get<TextBlock>(listing.blocks.front()).text;
    CHECK(text.find("Notes.txt") != std::string::npos);
    CHECK(text.find("sub/") != std::string::npos);
  }
}

TEST_CASE("windows access: refusals name the path and the reason") {
  Scratch s;
  s.write("root\\notes.txt", "hello\n");
  s.write("outside.txt", "not for the model\n");
  const Roots roots = roots_of(s.root());
  CHECK(refusal(roots, s.dir + "\\outside.txt") ==
        "Access denied: " + s.dir + "\\outside.txt is outside the allowed roots (" + s.root() +
            "). Read a file inside them, or start the server with the directory as a root.");
  CHECK(refusal(roots, s.root() + "\\..\\outside.txt").find("outside the allowed roots") != std::string::npos);
  CHECK(refusal(roots, s.root() + "\\NUL") ==
        "Cannot read " + s.root() + "\\NUL: \"NUL\" is a reserved device name on Windows, not a file.");
  CHECK(refusal(roots, s.root() + "\\notes.txt:hidden").find("alternate data stream") != std::string::npos);
  CHECK(refusal(roots, s.root() + "\\notes.txt ").find("ends in a dot or a space") != std::string::npos);
  CHECK(refusal(roots, s.root() + "\\note.txt") ==
        "File not found: " + s.root() + "\\note.txt. Did you mean: " + s.root() + "\\notes.txt?");
  CHECK(refusal(roots, s.root() + "\\nowhere\\x.txt") ==
        "File not found: " + s.root() + "\\nowhere\\x.txt. The directory " + s.root() + "\\nowhere does not exist.");
  CHECK(refusal(roots, "C:relative.txt").find("Give an absolute path") != std::string::npos);
}

TEST_CASE("windows access: names beyond ASCII stay themselves from request to message") {
  Scratch s;
  const std::string name = "R\xC3\xA9sum\xC3\xA9 \xE6\x96\x87.txt";  // Résumé 文.txt
  std::ofstream(path_from_utf8(s.root()) / path_from_utf8(name), std::ios::binary) << "bonjour\n";
  const Roots roots = roots_of(s.root());
  const AccessResult r = open_in_roots(roots, s.root() + "\\" + name);
  const auto* f = std::get_if<OpenedFile>(&r);
  REQUIRE(f != nullptr);
  CHECK(path_to_utf8(f->path) == s.root() + "\\" + name);
  CHECK(path_to_utf8(f->path.filename()) == name);
  // A near miss suggests the name as the folder holds it, in UTF-8.
  CHECK(refusal(roots, s.root() + "\\R\xC3\xA9sum\xC3\xA9 \xE6\x96\x87.tx").find("Did you mean: " + s.root() + "\\" + name) !=
        std::string::npos);
}

TEST_CASE("windows file identity: from the handle, equal for the same bytes, changed by a rewrite") {
  Scratch s;
  s.write("root\\a.txt", "one\n");
  s.write("root\\b.txt", "one\n");
  const Roots roots = roots_of(s.root());
  auto identity = [&](const std::string& name) {
    AccessResult r = open_in_roots(roots, s.root() + "\\" + name);
    REQUIRE(std::holds_alternative<OpenedFile>(r));
    return file_io::identity(std::get<OpenedFile>(r));
  };
  const auto a = identity("a.txt");
  CHECK(a.inode != 0);  // the file index: stat() on Windows has none
  CHECK(a == identity("a.txt"));
  CHECK(!(a == identity("b.txt")));  // same size and time, another file
  s.write("root\\a.txt", "one more\n");
  CHECK(!(a == identity("a.txt")));
}

TEST_CASE("windows file URIs: drive letters and backslashes") {
  CHECK(file_uri("C:\\Users\\Me\\a b.txt") == "file:///C:/Users/Me/a%20b.txt");
  CHECK(path_from_file_uri("file:///C:/Users/Me/a%20b.txt") == "C:\\Users\\Me\\a b.txt");
  CHECK(path_from_file_uri("file://localhost/D:/x") == "D:\\x");
  CHECK(path_from_file_uri("file:///C:/") == "C:\\");
  // Without a drive, or with a drive-relative path, a URI names no file on Windows.
  CHECK(path_from_file_uri("file:///etc/passwd").empty());
  CHECK(path_from_file_uri("file:///C:").empty());
  CHECK(path_from_file_uri("file:///C:x.txt").empty());
}

TEST_CASE("windows charsets: the system's code pages stand in for iconv") {
  CHECK(decoded("CP437", "\x80\x81\x82") == "\xC3\x87\xC3\xBC\xC3\xA9");  // Çüé
  CHECK(decoded("IBM037", "\xC8\x85\x93\x93\x96") == "Hello");              // EBCDIC
  CHECK(decoded("UTF-32LE", std::string("A\0\0\0\xAC\x20\0\0", 8)) == "A\xE2\x82\xAC");
  CHECK(decoded("UTF-32", std::string("\0\0\xFE\xFF\0\0\0B", 8)) == "B");  // big-endian by its mark
  CHECK(charset_ascii_compatible("CP437"));
  CHECK(!charset_ascii_compatible("IBM037"));
  CHECK(decoded("X-NO-SUCH-CHARSET", "abc").starts_with("(no decoder"));
}

TEST_CASE("windows charsets: WHATWG labels resolve to the standard's decoders") {
  // The code pages stand in for iconv, but the labels a page or a user names (shift_jis, euc-kr,
  // gb2312) decode through the standard's decoders, which Windows' code pages do not limit.
  for (const auto& [label, bytes, text] : std::vector<std::tuple<std::string, std::string, std::string>>{
           {"shift_jis", "\x93\xfa\x96\x7b", "\xE6\x97\xA5\xE6\x9C\xAC"},     // 日本
           {"euc-kr", "\xc7\xd1\xb1\xb9", "\xED\x95\x9C\xEA\xB5\xAD"},        // 한국
           {"gb2312", "\xd6\xd0\xce\xc4", "\xE4\xB8\xAD\xE6\x96\x87"},        // 中文
           {"windows-1251", "\xcf\xf0\xe8", "\xD0\x9F\xD1\x80\xD0\xB8"}}) {   // При
    CAPTURE(label);
    DetectedCharset cs;
    REQUIRE(resolve_encoding_name(label, &cs));
    CHECK(decoded(cs.name, bytes) == text);
  }
  CHECK_FALSE(resolve_encoding_name("no-such-label", nullptr));
}

TEST_CASE("windows charsets: UTF-16 by its mark or big-endian, and ASCII kept by the web's decoders") {
  const std::string hi_le("\xFF\xFEh\0i\0", 6), hi_be("\xFE\xFF\0h\0i", 6);
  CHECK(decoded("UTF-16", hi_le) == "hi");
  CHECK(decoded("UTF-16", hi_be) == "hi");
  CHECK(decoded("UTF-16", std::string("\0h\0i", 4)) == "hi");  // no mark: big-endian, as iconv
  CHECK(decoded("UTF-16LE", std::string("=\xD8\0\xDE", 4)) == "\xF0\x9F\x98\x80");  // a surrogate pair: 😀
  DetectedCharset cs;
  REQUIRE(resolve_encoding_name("utf-16", &cs));
  CHECK(cs.name == "UTF-16");
  // Multi-byte charsets Windows' code pages do not stand in for: their lines are still found by
  // their ASCII bytes.
  for (const char* name : {"CP932", "GB18030", "CP949", "EUC-JP", "BIG5-HKSCS", "WINDOWS-1252"}) {
    CAPTURE(std::string(name));
    CHECK(charset_ascii_compatible(name));
  }
  CHECK_FALSE(charset_ascii_compatible("UTF-16LE"));
}
