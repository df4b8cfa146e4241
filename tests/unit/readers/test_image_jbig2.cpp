// JBIG2 files (T.88 with the file header), decoded by jbig2dec into a PBM that libvips sends as
// any other image; files are written here segment by segment (T.88 7.2 and D.4).
#include "image_test_util.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <string>

using namespace mcpread::readers;
using namespace mcpread::test;
using namespace mcpread::test::image_util;

namespace {

std::string be32(std::uint32_t v) {
  std::string s;
  for (int shift = 24; shift >= 0; shift -= 8) s.push_back(static_cast<char>((v >> shift) & 0xFF));
  return s;
}

// A segment with no referred-to segments and a one-byte page association.
std::string segment(std::uint32_t number, unsigned type, unsigned page, const std::string& data) {
  return be32(number) + static_cast<char>(type) + '\0' + static_cast<char>(page) +
         be32(static_cast<std::uint32_t>(data.size())) + data;
}

// Page information (type 48): size, no resolution, the default pixel black or white, unstriped.
std::string page_info(std::uint32_t w, std::uint32_t h, bool black) {
  return be32(w) + be32(h) + be32(0) + be32(0) + static_cast<char>(black ? 0x04 : 0x00) + std::string(2, '\0');
}

// A file in sequential organisation of `pages` pages, each all black or all white.
std::string jbig2_file(std::uint32_t w, std::uint32_t h, unsigned pages = 1) {
  std::string f = std::string("\x97JB2\r\n\x1A\n", 8) + '\x01' + be32(pages);
  std::uint32_t n = 0;
  for (unsigned p = 1; p <= pages; ++p) {
    f += segment(n++, 48, p, page_info(w, h, p == 1));
    f += segment(n++, 49, p, "");  // end of page
  }
  return f + segment(n, 51, 0, "");  // end of file
}

}  // namespace

TEST_CASE("image: JBIG2 files") {
#if defined(_WIN32)
  MESSAGE("skipped under Windows: the Windows build has no jbig2dec");
  return;
#endif
  TempDir dir;
  SUBCASE("a page is decoded and sent as PNG, its pixels as the file has them") {
    const std::string file = jbig2_file(40, 20);
    const auto p = dir.write("scan.jb2", file);
    const ReadOutcome o = read(dir, "scan.jb2");
    const Sent s = sent(o);
    CHECK(s.text == "Image " + p.string() + ": JBIG2, 40×20 px, " + std::to_string(file.size()) +
                        " bytes. Sent as PNG, 40×20 px (" + size_text(s.bytes.size()) + "). Converted from JBIG2.");
    CHECK(s.mime == "image/png");
    CHECK(s.image.width == 40);
    CHECK(s.image.height == 20);
    CHECK(pixel_at(s.bytes, 0, 0) == std::vector<double>{0});
    CHECK(pixel_at(s.bytes, 39, 19) == std::vector<double>{0});
    CHECK(o.meta["mime"] == "image/x-jbig2");
    CHECK(o.meta["original_format"] == "JBIG2");
  }
  SUBCASE("by its content, whatever its name; the first of several pages, said so") {
    dir.write("pages.bin", jbig2_file(16, 16, 3));
    const Sent s = sent(read(dir, "pages.bin"));
    CHECK(s.text.ends_with("). Converted from JBIG2; first page of 3."));
    CHECK(pixel_at(s.bytes, 8, 8) == std::vector<double>{0});  // page 1 is the black one
  }
  SUBCASE("a file cut off in its page information is refused as corrupt") {
    const auto p = dir.write("cut.jbig2", jbig2_file(40, 20).substr(0, 30));
    const ReadOutcome o = read(dir, "cut.jbig2");
    REQUIRE(o.is_error);
    CHECK(text_of(o).starts_with(p.string() + " is a JBIG2 image that cannot be decoded; it is probably truncated or "
                                              "corrupt (jbig2dec reports: "));
  }
  SUBCASE("a page past the pixel limit is not decoded") {
    dir.write("huge.jb2", jbig2_file(100000, 100000));
    const ReadOutcome o = read(dir, "huge.jb2");
    REQUIRE(o.is_error);
    CHECK(text_of(o).find(" is a JBIG2 image that was not decoded: it asks for more memory than a page within the "
                          "limit needs, more than the limit of ") != std::string::npos);
  }
  SUBCASE("a page within the memory budget but over a lowered pixel limit") {
    ImageLimits small;
    small.max_pixels = 1000;
    dir.write("wide.jb2", jbig2_file(40, 30));
    const ReadOutcome o = read(dir, "wide.jb2", small);
    REQUIRE(o.is_error);
    CHECK(text_of(o).find(" is a JBIG2 image that was not decoded: its page is 40×30 px, more than the limit of "
                          "0.001 megapixels") != std::string::npos);
  }
}
