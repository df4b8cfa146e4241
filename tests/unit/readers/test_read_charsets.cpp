// Text before binary: a file libmagic or the byte scan takes for binary is read as text when a
// charset decodes it cleanly and with confidence; an `encoding` argument alone reads as text.
#include "charsets_here.hpp"
#include "fixtures.hpp"
#include "reader_fixtures.hpp"

#include "mcpread/readers/classify.hpp"
#include "mcpread/readers/read.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <fstream>
#include <iterator>
#include <string>

using namespace std::string_literals;
using namespace mcpread::readers;
using mcpread::test::iconv_encode;
using mcpread::test::pseudo_random;
using mcpread::test::roots_of;
using mcpread::test::TempDir;

namespace {

std::string text_of(const ReadOutcome& o) {
  REQUIRE_FALSE(o.blocks.empty());
  return std::get<TextBlock>(o.blocks.front()).text;
}

ReadOutcome read(const Roots& roots, const std::string& path, const std::string& encoding = {}) {
  ReadRequest request;
  request.file_path = path;
  request.encoding = encoding;
  return read_file(roots, request, ReadLimits{}, CancelToken{});
}

Classification cls(const std::string& name, const std::string& content) {
  return classify(name, std::span(reinterpret_cast<const unsigned char*>(content.data()), content.size()),
                  content.size());
}

// Starts with 똠 (0x8C 0x63), which libmagic reads as a DOS .COM program's first instruction.
const std::string kKorean =
    "똠방각하는 오늘도 펲시콜라를 마시며 햏자들과 함께 뷁을 외쳤다. 마을 사람들은 그 모습을 보고 "
    "웃었다.\n그러나 그는 개의치 않고 자신의 길을 걸어갔다. 하늘은 맑고 바람은 시원했다.\n";
const std::string kJapanese =
    "日本は東アジアに位置する島国です。首都は東京で、人口は約一億二千万人です。\n春には桜が咲き、"
    "多くの人々が花見を楽しみます。秋には紅葉が美しく、山々が赤や黄色に染まります。\n";

}  // namespace

TEST_CASE("read_file: text before binary") {
  TempDir dir;
  const Roots roots = roots_of(dir);
  const std::string d = dir.path().string();
  SUBCASE("CP949 Korean that libmagic calls a DOS executable") {
    const std::string cp949 = iconv_encode(kKorean, "CP949");
    const auto c = cls("hangul", cp949);
    CHECK(c.kind == FileKind::text);
    CHECK(c.description ==
          "text in CP949 (libmagic: DOS executable (COM), start instruction 0x8c63b9e6 b0a2c7cf)");
    dir.write("hangul", cp949);
    const auto o = read(roots, "hangul");
    CHECK_FALSE(o.is_error);
    CHECK(o.meta["kind"] == "text");
    CHECK(o.meta["mime"] == "text/plain");
    CHECK(o.meta["charset"] == "CP949");
    CHECK(text_of(o) == "     1\t" + kKorean.substr(0, kKorean.find('\n')) + "\n     2\t" +
                            kKorean.substr(kKorean.find('\n') + 1, kKorean.size() - kKorean.find('\n') - 2) +
                            "\n\n[Lines 1-2 of 2. End of file.]\n[Decoded from CP949 to UTF-8.]");
  }
  SUBCASE("ISO-2022-KR, whose shifts are control bytes") {
    if (!mcpread::test::decoded_here("ISO-2022-KR")) {
      MCPREAD_NOT_DECODED_HERE("ISO-2022-KR");
      return;
    }
    dir.write("kr.txt", iconv_encode(kKorean.substr(kKorean.find('\n') + 1), "ISO-2022-KR"));
    const auto o = read(roots, "kr.txt");
    CHECK_FALSE(o.is_error);
    CHECK(o.meta["charset"] == "ISO-2022-KR");
    CHECK(text_of(o) == "     1\t" + kKorean.substr(kKorean.find('\n') + 1, kKorean.size() - kKorean.find('\n') - 2) +
                            "\n\n[Lines 1-1 of 1. End of file.]\n[Decoded from ISO-2022-KR to UTF-8.]");
  }
  SUBCASE("UTF-16BE and UTF-16LE Japanese without a byte-order mark") {
    for (const char* order : {"UTF-16BE", "UTF-16LE"}) {
      CAPTURE(order);
      dir.write("u16.txt", iconv_encode(kJapanese, order));
      const auto o = read(roots, "u16.txt");
      CHECK_FALSE(o.is_error);
      CHECK(o.meta["charset"] == order);
      CHECK(text_of(o).starts_with("     1\t日本は東アジアに位置する島国です。"));
    }
  }
  SUBCASE("real binaries stay refused") {
    std::ifstream self("/proc/self/exe", std::ios::binary);
    std::string elf(65536, '\0');
    self.read(elf.data(), static_cast<std::streamsize>(elf.size()));
    elf.resize(static_cast<std::size_t>(self.gcount()));
    const std::string zip = "PK\x03\x04\x14\0\0\0\x08\0"s + pseudo_random(3000, 9);
    // A PNG goes to the image reader (test_image.cpp), which says what failed; never to text.
    CHECK(cls("bad.dat", "\x89PNG\r\n\x1a\n\0\0\0\rIHDR"s + pseudo_random(3000, 5)).kind ==
          FileKind::image);
    // A zip goes to the archive reader (test_archive.cpp), which says it is damaged.
    CHECK(cls("a.dat", zip).kind == FileKind{"archive"});
    for (const auto& [name, content] : {std::pair{"prog", elf}, std::pair{"noise", pseudo_random(65536, 2)}}) {
      CAPTURE(name);
      dir.write(name, content);
      const auto o = read(roots, name);
      CHECK(o.is_error);
      CHECK(text_of(o).starts_with(d + mcpread::test::kSep + name + " is a binary file ("));
      CHECK(o.meta["kind"] == "binary");
    }
  }
  SUBCASE("an encoding alone reads a binary-looking file as text") {
    dir.write("latin.bin", "caf\xE9\x01\x02\x03\x04\x05\x06\x07\x08\x0E\x0F\x10\x11\x12\n"s);
    REQUIRE(read(roots, "latin.bin").is_error);
    const auto o = read(roots, "latin.bin", "latin1");
    CHECK_FALSE(o.is_error);
    CHECK(o.meta["kind"] == "text");
    CHECK(text_of(o) == "     1\tcafé\x01\x02\x03\x04\x05\x06\x07\x08\x0E\x0F\x10\x11\x12\n\n"
                        "[Lines 1-1 of 1. End of file.]\n"
                        "[Decoded from WINDOWS-1252 (the decoder browsers use for latin1) to UTF-8.]");
  }
}
