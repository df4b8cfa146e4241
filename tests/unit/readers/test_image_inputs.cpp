// Images of every format libvips loads, under any name, read concurrently, from bytes in memory
// (encode_for_model); the original file is never touched.
#include "image_test_util.hpp"

#include <doctest/doctest.h>

#include <sys/stat.h>

#include <atomic>
#include <thread>
#include <vector>

using namespace mcpread::readers;
using namespace mcpread::test;
using namespace mcpread::test::image_util;

TEST_CASE("image: whatever libvips loads is read") {
#if defined(_WIN32)
  MESSAGE("skipped under Windows: sharp's libvips reads no Netpbm (PGM, PPM)");
  return;
#endif
  TempDir dir;
  SUBCASE("PGM, which libvips reads from files only") {
    const auto p = dir.write("scan.pgm", netpbm(40, 30, 1));
    const ReadOutcome o = read(dir, "scan.pgm");
    const Sent s = sent(o);
    CHECK(s.text.starts_with("Image " + p.string() + ": PNM, 40×30 px, 1.2 KB. Sent as PNG, 40×30 px ("));
    CHECK(s.text.ends_with("). Converted from PNM."));
    CHECK(s.mime == "image/png");
    CHECK(s.image.width == 40);
    CHECK(s.image.height == 30);
    CHECK(pixel_at(s.bytes, 5, 2) == std::vector<double>{85});  // sample 2 × 40 + 5
    CHECK(o.meta["mime"] == "image/x-portable-greymap");
  }
  SUBCASE("PPM") {
    dir.write("a.ppm", netpbm(2, 2, 3));
    const Sent s = sent(read(dir, "a.ppm"));
    CHECK(pixel_at(s.bytes, 1, 0) == std::vector<double>{3, 4, 5});
  }
  SUBCASE("plain (ASCII) PPM, which is text to libmagic: the picture, not its numbers") {
    dir.write("plain.ppm", "P3\n# made by hand\n2 1\n255\n255 0 0   0 0 255\n");
    const ReadOutcome o = read(dir, "plain.ppm");
    const Sent s = sent(o);
    CHECK(s.image.width == 2);
    CHECK(s.image.height == 1);
    CHECK(pixel_at(s.bytes, 1, 0) == std::vector<double>{0, 0, 255});
  }
  SUBCASE("Sun raster, through ImageMagick's decoder: a pixel format it may read") {
    // Header: magic, width 2, height 1, depth 24, length 6, type 1 (standard), no colormap;
    // then one row of BGR samples (6 bytes, already a multiple of 16 bits).
    std::string ras("\x59\xA6\x6A\x95", 4);
    for (const unsigned v : {2u, 1u, 24u, 6u, 1u, 0u, 0u})
      for (int shift = 24; shift >= 0; shift -= 8) ras.push_back(static_cast<char>((v >> shift) & 0xFF));
    ras += std::string("\x00\x00\xFF\x00\x00\xFF", 6);  // two red pixels (stored as BGR)
    dir.write("icon.ras", ras);
    const Sent s = sent(read(dir, "icon.ras"));
    CHECK(s.image.width == 2);
    const std::vector<double> red = pixel_at(s.bytes, 0, 0);  // sent as JPEG: near, not exact
    REQUIRE(red.size() == 3);
    CHECK(red[0] > 240);
    CHECK(red[1] < 15);
    CHECK(red[2] < 15);
  }
  SUBCASE("OpenEXR: linear light over 1.0 mapped to 8-bit sRGB") {
    const auto p = dir.write("light.exr", exr_rgb(64, 32, 4.0f));
    const ReadOutcome o = read(dir, "light.exr");
    const Sent s = sent(o);
    CHECK(s.text.starts_with("Image " + p.string() + ": OpenEXR, 64×32 px, 24.8 KB. Sent as JPEG, 64×32 px ("));
    CHECK(s.text.ends_with("). Converted from OpenEXR; floating-point samples mapped to 8-bit sRGB."));
    // Sent as JPEG (an opaque picture): its samples are near, not at, the exact values.
    const std::vector<double> left = pixel_at(s.bytes, 0, 16), right = pixel_at(s.bytes, 48, 16);
    REQUIRE(left.size() == 3);
    REQUIRE(right.size() == 3);
    CHECK(left[0] < 40);      // 0.0, black
    CHECK(right[0] > 250);    // 3.0 is brighter than white: clipped, not wrapped or scaled down
    CHECK(right[1] == doctest::Approx(188).epsilon(0.05));  // 0.5 in linear light is 188 in sRGB
    CHECK(right[2] == doctest::Approx(137).epsilon(0.05));  // 0.25 is 137
    CHECK(o.meta["original_format"] == "OpenEXR");
  }
  SUBCASE("PFM, which libmagic does not name, read on request: floats stretched to 0-255") {
    dir.write("depth.pfm", std::string("Pf\n2 1\n-1.0\n") + std::string("\0\0\0\0\0\0\0\x40", 8));  // 0.0, 2.0
    const ReadOutcome o = read(dir, "depth.pfm", {}, FileKind::image);
    const Sent s = sent(o);
    CHECK(s.text.ends_with("Converted from PNM; floating-point samples mapped to 8-bit sRGB."));
    CHECK(pixel_at(s.bytes, 0, 0) == std::vector<double>{0});
    CHECK(pixel_at(s.bytes, 1, 0) == std::vector<double>{255});
  }
  SUBCASE("a PNG whose header fails its CRC: the decoder's words, no text hint") {
    std::string png = encode_picture({4, 3, 1}, ".png");
    png[29] = static_cast<char>(png[29] ^ 0xFF);  // the IHDR chunk's CRC
    const auto p = dir.write("bad.png", png);
    const ReadOutcome o = read(dir, "bad.png");
    REQUIRE(o.is_error);
    CHECK(text_of(o) == p.string() + " is a PNG image that cannot be decoded; it is probably truncated or corrupt "
                                     "(IHDR: CRC error). Re-create or re-download the file, or open it in an image editor.");
  }
  SUBCASE("a PNG whose image data fails its CRC is never passed through") {
    std::string png = encode_picture({4, 3, 1}, ".png");
    const std::size_t idat = png.find("IDAT") - 4;
    const std::size_t length = static_cast<unsigned char>(png[idat + 3]);  // a few dozen bytes
    png[idat + 8 + length] = static_cast<char>(png[idat + 8 + length] ^ 0xFF);
    const auto p = dir.write("crc.png", png);
    const ReadOutcome o = read(dir, "crc.png");
    REQUIRE(o.is_error);
    CHECK(text_of(o) == p.string() + " is a PNG image (4×3 px) that cannot be decoded; it is probably truncated or "
                                     "corrupt (its IDAT chunk at byte " +
                                     std::to_string(idat) + " fails its CRC check). Re-create or re-download the "
                                     "file, or open it in an image editor.");
  }
  SUBCASE("a PNG with a damaged text chunk is re-encoded, and says why") {
    const std::string png = encode_picture({4, 3, 1}, ".png");
    const std::string text_chunk = std::string("\0\0\0\x05tEXtk\0abc", 13) + "CRC!";
    dir.write("note.png", png.substr(0, 33) + text_chunk + png.substr(33));
    const Sent s = sent(read(dir, "note.png"));
    CHECK(s.text.ends_with(". Re-encoded: its tEXt chunk at byte 33 fails its CRC check."));
    CHECK(s.image.width == 4);
  }
  SUBCASE("an image format this libvips does not read: convert it") {
    // A GIMP XCF image: libmagic names it, only ImageMagick would read it.
    const auto p = dir.write("art.xcf", std::string("gimp xcf v011\0\0\0\0\x10\0\0\0\x10\0\0\0\0", 26) + std::string(64, '\0'));
    const ReadOutcome o = read(dir, "art.xcf");
    REQUIRE(o.is_error);
    CHECK(text_of(o) == p.string() + " is not an image libvips can decode (it may be truncated or corrupt, or not "
                                     "an image at all): only ImageMagick recognises it, and mcp-read lets ImageMagick "
                                     "read BMP, ICO, CUR, PSD, SGI, Sun raster and PCX files only. Its content looks like GIMP XCF image "
                                     "data, version 011, 16 x 16, RGB Color (image/x-xcf). Convert it to PNG or JPEG "
                                     "(with an image editor, or ImageMagick's convert) and read that file.");
    CHECK(o.meta["kind"] == "image");
  }
}

TEST_CASE("image: names do not matter, and the original is never touched") {
  TempDir dir;
  const std::string png = encode_picture({320, 240}, ".png");
  const auto wrong = dir.write("really-png.jpg", png);
  dir.write("noext", png);
  const auto target = dir.write("sub/target.png", png);
  std::error_code link_error;
  std::filesystem::create_symlink(target, dir.path() / "link.png", link_error);
#if defined(_WIN32)
  if (link_error) MESSAGE("link.png not tested: no symbolic link could be made here (Wine 8 makes none)");
#else
  REQUIRE_FALSE(link_error);
#endif
  const auto before = std::filesystem::last_write_time(target);
  for (const char* name : {"really-png.jpg", "noext", "link.png"}) {
    if (link_error && std::string_view(name) == "link.png") continue;
    CAPTURE(name);
    const auto o = read(dir, name);
    const Sent s = sent(o);
    CHECK(s.mime == "image/png");
    CHECK(o.meta["original_format"] == "PNG");
    CHECK(s.bytes == png);
  }
  if (!link_error) CHECK(read(dir, "link.png").meta["path"] == target.string());
  CHECK(std::filesystem::last_write_time(target) == before);  // to the nanosecond
  CHECK(slurp(target) == png);
  CHECK(slurp(wrong) == png);
}

TEST_CASE("image: concurrent reads") {
  TempDir dir;
  dir.write("a.png", encode_picture({2400, 1600, 4}, ".png"));
  dir.write("b.jpg", encode_picture({3000, 2000, 3, Pattern::photo}, ".jpg"));
  dir.write("c.gif", encode_picture({64, 48}, ".gif"));
  std::vector<std::thread> threads;
  std::atomic<int> ok{0};
  for (int i = 0; i < 6; ++i)
    threads.emplace_back([&, i] {
      const char* names[] = {"a.png", "b.jpg", "c.gif"};
      const auto o = read(dir, names[i % 3]);
      if (!o.is_error && o.blocks.size() == 2) ++ok;
    });
  for (auto& t : threads) t.join();
  CHECK(ok == 6);
}

TEST_CASE("image: encode_for_model works on bytes in memory") {
  const std::string gif = encode_picture({64, 48}, ".gif");
  const auto r = encode_for_model(gif, "image/gif", {}, CancelToken{});
  REQUIRE(std::holds_alternative<EncodedImage>(r));
  const auto& e = std::get<EncodedImage>(r);
  CHECK(e.passed_through);
  CHECK(e.mime == "image/gif");
  CHECK(std::string(mcpread::readers::view_of(e.data)) == gif);
  const auto bad = encode_for_model("not an image", "", {}, CancelToken{});
  REQUIRE(std::holds_alternative<std::string>(bad));
  CHECK(std::get<std::string>(bad).starts_with("The data is not an image libvips can decode"));
}
