// The text reader with charsets as browsers decode them, and the note for U+FFFD.
#include "charsets_here.hpp"
#include "text_test_util.hpp"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <stdexcept>
#include <string>

using mcpread::readers::CancelToken;
using mcpread::readers::OpenedFile;
using mcpread::readers::ReadOutcome;
using mcpread::readers::TextBlock;
using mcpread::readers::TextOptions;
using mcpread::test::iconv_encode;
using mcpread::test::TempDir;
using mcpread::test::text_util::read;
using mcpread::test::text_util::text_of;

namespace {

const std::string R = "\xEF\xBF\xBD";  // U+FFFD

}  // namespace

TEST_CASE("text charsets as browsers decode them") {
  TempDir dir;
  SUBCASE("a Shift_JIS label reads as Windows-31J: backslash and tilde stay") {
    TextOptions opt;
    opt.encoding = "shift_jis";
    const auto o = read(dir, "User\\ Manual \x83\x81\x83\x6A\x83\x85\x81\x5B\n~~~~\n", opt);
    CHECK(text_of(o) == "     1\tUser\\ Manual メニュー\n     2\t~~~~\n\n[Lines 1-2 of 2. End of file.]\n"
                        "[Decoded from CP932 (the decoder browsers use for shift_jis) to UTF-8.]");
    CHECK(o.meta["charset"] == "CP932");
    CHECK(o.meta["charset_label"] == "shift_jis");
  }
  SUBCASE("utf-16 without a BOM is read as little endian") {
    TextOptions opt;
    opt.encoding = "utf-16";
    const auto o = read(dir, iconv_encode("hi\n", "UTF-16LE"), opt);
    CHECK(text_of(o) == "     1\thi\n\n[Lines 1-1 of 1. End of file.]\n[Decoded from UTF-16LE to UTF-8.]");
  }
  SUBCASE("ISO-2022-JP is detected and decoded") {
    const std::string japanese = "日本語のテキストです。\n二行目はここです。\n";
    const auto o = read(dir, iconv_encode(japanese, "ISO-2022-JP"));
    CHECK(text_of(o) == "     1\t日本語のテキストです。\n     2\t二行目はここです。\n\n"
                        "[Lines 1-2 of 2. End of file.]\n[Decoded from ISO-2022-JP to UTF-8.]");
  }
  SUBCASE("HZ-GB-2312 is decoded by ICU") {
    const auto o = read(dir, "Hello ~{Dc:C~}, ~~ok\n");  // 你好 in HZ
#if defined(_WIN32)
    // Detected, and refused with what to do: the Windows build has no ICU (charsets_here.hpp).
    CHECK(text_of(o) == "Cannot decode " + (dir.path() / "f.txt").string() +
                            " as HZ-GB-2312: Decoding this charset needs ICU, which the Windows build of mcp-read "
                            "does not include; convert the file to UTF-8 (for example with iconv -f HZ-GB-2312 -t "
                            "UTF-8) and read that.");
#else
    CHECK(text_of(o) == "     1\tHello 你好, ~ok\n\n[Lines 1-1 of 1. End of file.]\n"
                        "[Decoded from HZ-GB-2312 to UTF-8.]");
#endif
  }
}

TEST_CASE("text U+FFFD: how many, and the likeliest charsets") {
  TempDir dir;
  // Greek in CP737, the DOS code page, for which uchardet has no answer: it reads without a
  // fault in CP737 and is decoded so.
  const std::string greek =
      "Η Ελλάδα είναι μια χώρα της νοτιοανατολικής Ευρώπης με πλούσια ιστορία. Η πρωτεύουσα είναι "
      "η Αθήνα, όπου βρίσκεται η Ακρόπολη.\nΟι αρχαίοι φιλόσοφοι, όπως ο Σωκράτης και ο Πλάτωνας, "
      "έθεσαν τα θεμέλια της δυτικής σκέψης. Τα νησιά του Αιγαίου είναι γνωστά για τις όμορφες "
      "παραλίες τους.\n";
  const std::string expected = "     1\t" + greek.substr(0, greek.find('\n')) + "\n     2\t" +
                               greek.substr(greek.find('\n') + 1, greek.size() - greek.find('\n') - 2) +
                               "\n\n[Lines 1-2 of 2. End of file.]\n[Decoded from CP737 to UTF-8.]";
  const auto o = read(dir, iconv_encode(greek, "CP737"));
  CHECK(o.meta["charset"] == "CP737");
  CHECK(text_of(o) == expected);
  TextOptions opt;
  opt.encoding = "cp737";
  CHECK(text_of(read(dir, iconv_encode(greek, "CP737"), opt)) == expected);
  SUBCASE("too few bytes to detect: U+FFFD, counted, and the likeliest charsets") {
    const auto few = read(dir, "data \x80\x81\x82\x83\x84\x85 end\n");
    CHECK(few.meta["charset"] == "UTF-8");
    CHECK(text_of(few) ==
          "     1\tdata " + R + R + R + R + R + R + " end\n\n[Lines 1-1 of 1. End of file.]\n[6 byte "
          "sequences not valid in UTF-8 are shown as U+FFFD. If the file is in another charset, the "
          "likeliest are windows-1251, cp437 and cp850: call read again with encoding=\"windows-1251\".]");
  }
  SUBCASE("a legacy decode with errors counts them and leaves its own charset out") {
    TextOptions sjis;
    sjis.encoding = "cp932";
    CHECK(text_of(read(dir, "ok \xA0\xFD\n", sjis)) ==
          "     1\tok " + R + R + "\n\n[Lines 1-1 of 1. End of file.]\n[Decoded from CP932 to UTF-8.]\n"
          "[2 byte sequences not valid in CP932 are shown as U+FFFD. If the file is in another "
          "charset, the likeliest are windows-1252, windows-1250 and windows-1251: call read again "
          "with encoding=\"windows-1252\".]");
  }
}
