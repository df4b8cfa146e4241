// Images over the byte budget (quality, then pixels, stepped down) and the refusals: each names the
// file, what it is and what to do.
#include "image_test_util.hpp"

#include <doctest/doctest.h>

using namespace mcpread::readers;
using namespace mcpread::test;
using namespace mcpread::test::image_util;

TEST_CASE("image: too many bytes steps down quality, then pixels") {
  TempDir dir;
  ImageLimits limits;
  limits.max_base64_bytes = 50'000;
  SUBCASE("a noisy PNG photo becomes a smaller JPEG") {
    dir.write("noise.png", encode_picture({1600, 1200, 3, Pattern::noise}, ".png"));
    const auto o = read(dir, "noise.png", limits);
    const Sent s = sent(o);
    CHECK(s.mime == "image/jpeg");
    CHECK(o.meta["sent_bytes"].get<std::size_t>() <= 50'000);
    CHECK(s.image.width < 1600);
    const std::string note = o.meta["note"];
    CHECK(note.starts_with("converted from PNG; downscaled from 1600×1200; JPEG"));
    CHECK(note.ends_with("instead of PNG and fewer pixels to fit 48.8 KB"));
  }
  SUBCASE("a JPEG first loses quality, keeping its pixels") {
    dir.write("q.jpg", encode_picture({600, 450, 3, Pattern::photo}, ".jpg[Q=95]"));
    const auto o = read(dir, "q.jpg", limits);
    const Sent s = sent(o);
    CHECK(s.image.width == 600);
    CHECK(o.meta["sent_bytes"].get<std::size_t>() <= 50'000);
    CHECK(std::string(o.meta["note"]).starts_with("JPEG quality "));
    CHECK(std::string(o.meta["note"]).ends_with(" to fit 48.8 KB"));
  }
  SUBCASE("transparency stays PNG and only loses pixels") {
    dir.write("alpha.png", encode_picture({800, 600, 4, Pattern::noise}, ".png"));
    const auto o = read(dir, "alpha.png", limits);
    const Sent s = sent(o);
    CHECK(s.mime == "image/png");
    CHECK(s.image.bands == 4);
    CHECK(o.meta["sent_bytes"].get<std::size_t>() <= 50'000);
    CHECK(o.meta["note"] == "downscaled from 800×600; fewer pixels to fit 48.8 KB");
  }
  SUBCASE("an animated GIF over max_edge sends its first frame") {
    limits.max_edge = 32;
    dir.write("anim.gif", encode_picture({64, 48, 3, Pattern::gradient, 5}, ".gif"));
    const auto o = read(dir, "anim.gif", limits);
    const Sent s = sent(o);
    CHECK(s.image.pages == 1);
    CHECK(s.image.width == 32);
    CHECK(o.meta["note"] == "converted from GIF; downscaled from 64×48; first frame of 5");
  }
}

TEST_CASE("image: a PNG under 2000 px whose base64 exceeds 5 MB is re-encoded") {
  TempDir dir;
  const auto path = dir.write("big.png", encode_picture({1550, 1150, 3, Pattern::noise}, ".png"));
  const auto size = slurp(path).size();
  REQUIRE((size + 2) / 3 * 4 > (5u << 20));
  const auto t0 = std::chrono::steady_clock::now();
  const auto o = read(dir, "big.png");
  MESSAGE(size_text(size) << " PNG over the base64 budget, re-encoded: " << seconds_since(t0) * 1000
                          << " ms");
  const Sent s = sent(o);
  CHECK(s.image.width == 1550);
  CHECK(o.meta["sent_bytes"].get<std::size_t>() <= (5u << 20));
  CHECK(o.meta["note"] == "converted from PNG; JPEG instead of PNG to fit 5 MB");
  CHECK(s.text.find("Sent as JPEG, 1550×1150 px (") != std::string::npos);
  CHECK(s.text.find("multiply") == std::string::npos);
}

TEST_CASE("image: a large file decoded from the file itself gives what its bytes give") {
  // Files of 4 MiB and more that must be decoded are read by libvips from the open file (through
  // /proc/self/fd), their bytes let go first; the answer must be the one the bytes give.
  TempDir dir;
  const std::string png = encode_picture({1700, 1300, 3, Pattern::noise}, ".png");
  REQUIRE(png.size() >= (4u << 20));
  dir.write("large.png", png);
  const Sent from_file = sent(read(dir, "large.png"));
  const auto from_bytes = mcpread::readers::encode_for_model(png, "image/png", ImageLimits{}, CancelToken{});
  REQUIRE(std::holds_alternative<mcpread::readers::EncodedImage>(from_bytes));
  const auto& expected = std::get<mcpread::readers::EncodedImage>(from_bytes);
  CHECK(from_file.image.width == expected.width);
  CHECK(from_file.bytes == std::string(mcpread::readers::view_of(expected.data)));
}

TEST_CASE("image: errors name the file, what it is and what to do") {
  TempDir dir;
  const std::string jpeg = encode_picture({640, 480, 3, Pattern::noise}, ".jpg");
  const std::string png = encode_picture({640, 480, 3, Pattern::noise}, ".png");
  const auto half_jpeg = dir.write("half.jpg", jpeg.substr(0, jpeg.size() / 2));
  const auto half_png = dir.write("half.png", png.substr(0, png.size() / 2));
  const auto noise = dir.write("noise.bin", random_bytes(5000));
  const auto empty = dir.write("empty.png", "");

  // libjpeg's words for a cut file: Debian's libjpeg-turbo 2.1, or the one in sharp's libvips.
#if defined(_WIN32)
  const std::string kJpegCut = "premature end of JPEG image";
#else
  const std::string kJpegCut = "Premature end of input file";
#endif
  auto o = read(dir, "half.jpg");
  REQUIRE(o.is_error);
  CHECK(text_of(o) ==
        half_jpeg.string() +
            " is a JPEG image (640×480 px) that cannot be decoded; it "
            "is probably truncated or corrupt (VipsJpeg: " + kJpegCut + "). "
            "Re-create or re-download the file, or open it in an image editor.");
  o = read(dir, "half.png");
  REQUIRE(o.is_error);
  CHECK(text_of(o).starts_with(half_png.string() +
                               " is a PNG image (640×480 px) that cannot be "
                               "decoded; it is probably truncated or corrupt ("));
  o = read(dir, "noise.bin", {}, FileKind::image);
  REQUIRE(o.is_error);
  // Data read as an image on request: no hint of text or encodings, which would not fit it.
  CHECK(text_of(o) == noise.string() + " is not an image libvips can decode (it may be truncated or corrupt, or "
                                       "not an image at all): VipsForeignLoad: buffer is not in a known format. "
                                       "Its content looks like data (application/octet-stream).");
  // ImageMagick reads drawing scripts that can pull in other files: only a few formats may use it.
  const auto mvg = dir.write("draw.mvg",
                             "push graphic-context\nviewbox 0 0 10 10\nfill red\n"
                             "rectangle 0 0 10 10\npop graphic-context\n");
  o = read(dir, "draw.mvg", {}, FileKind::image);
  REQUIRE(o.is_error);
#if defined(_WIN32)
  MESSAGE("ImageMagick's refusal not checked under Windows: sharp's libvips has no ImageMagick");
#else
  CHECK(text_of(o).starts_with(mvg.string() +
                               " is not an image libvips can decode (it may be "
                               "truncated or corrupt, or not an image at all): only ImageMagick "
                               "recognises it, and mcp-read lets ImageMagick read BMP, ICO, CUR, "
                               "PSD, SGI, Sun raster and PCX files only. Its content looks like "));
#endif
  o = read(dir, "empty.png", {}, FileKind::image);
  REQUIRE(o.is_error);
  CHECK(text_of(o) == empty.string() + " is empty (0 bytes), not an image.");

  ImageLimits limits;
  limits.max_input_bytes = 1000;
  dir.write("a.gif", encode_picture({64, 48}, ".gif"));
  o = read(dir, "a.gif", limits);
  REQUIRE(o.is_error);
  const std::string size = std::to_string(slurp(dir.path() / "a.gif").size());
  CHECK(text_of(o) ==
        (dir.path() / "a.gif").string() + " is " + size_text(std::stoul(size)) + " (" + size +
            " bytes), more than the 1000 bytes limit for image files, so it "
            "was not read. Start mcp-read with a larger --image-max-input-bytes to read it.");
  CHECK(o.meta["size"] == std::stoul(size));

  const auto cancelled = CancelToken::make();
  cancelled.cancel();
  o = read(dir, "a.gif", {}, {}, cancelled);
  CHECK(o.cancelled);
  const auto r = encode_for_model(png, "image/png", {}, cancelled);
  REQUIRE(std::holds_alternative<std::string>(r));
  CHECK(std::get<std::string>(r) == "The read was cancelled.");
}

// No list of formats: libvips is asked for a loader, its file-only loaders (PNM, OpenEXR in 8.14)
// included, and float samples come out as 8-bit sRGB.
