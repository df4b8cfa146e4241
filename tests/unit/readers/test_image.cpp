// Images through read_file (classification, then read_image): what passes through unchanged, what
// is downscaled, refused before decoding or converted. Every fixture is made at test time with
// libvips; what was sent is decoded back to check it.
#include "image_test_util.hpp"

#include <doctest/doctest.h>

using namespace mcpread::readers;
using namespace mcpread::test;
using namespace mcpread::test::image_util;

TEST_CASE("image: formats models accept pass through unchanged when they fit") {
  TempDir dir;
  const auto tiny = dir.write("tiny.png", encode_picture({8, 8}, ".png"));
  const auto o = read(dir, "tiny.png");
  const Sent s = sent(o);
  CHECK(s.text == "Image " + tiny.string() + ": PNG, 8×8 px, " + size_text(slurp(tiny).size()) +
                      ". Sent unchanged.");
  CHECK(s.bytes == slurp(tiny));
  CHECK(o.meta["path"] == tiny.string());
  CHECK(o.meta["mime"] == "image/png");
  CHECK(o.meta["size"] == slurp(tiny).size());
  CHECK(o.meta["original_format"] == "PNG");
  CHECK(o.meta["original_width"] == 8);
  CHECK(o.meta["original_height"] == 8);
  CHECK(o.meta["scale"] == 1.0);
  CHECK(o.meta["passed_through"] == true);
  CHECK_FALSE(o.meta.contains("note"));

  struct Case { const char* name; std::string bytes; const char *mime, *format; int pages; };
  const Case cases[] = {
      {"photo.jpg", encode_picture({640, 480}, ".jpg[Q=90]"), "image/jpeg", "JPEG", 1},
      {"progressive.jpg", encode_picture({640, 480}, ".jpg[interlace]"), "image/jpeg", "JPEG", 1},
      {"still.gif", encode_picture({64, 48}, ".gif"), "image/gif", "GIF", 1},
      {"anim.gif", encode_picture({64, 48, 3, Pattern::gradient, 5}, ".gif"), "image/gif", "GIF",
       5},
      {"still.webp", encode_picture({640, 480}, ".webp"), "image/webp", "WEBP", 1},
      {"anim.webp", encode_picture({64, 48, 3, Pattern::gradient, 4}, ".webp"), "image/webp",
       "WEBP", 4},
      {"alpha.png", encode_picture({640, 480, 4}, ".png"), "image/png", "PNG", 1},
      {"grey.png", encode_picture({300, 200, 1}, ".png"), "image/png", "PNG", 1},
  };
  for (const Case& c : cases) {
    const std::string name = c.name;
    CAPTURE(name);
    const auto path = dir.write(c.name, c.bytes);
    const auto r = read(dir, c.name);
    const Sent t = sent(r);
    CHECK(t.mime == c.mime);
    CHECK(t.bytes == c.bytes);
    CHECK(t.image.pages == c.pages);
    CHECK(r.meta["original_format"] == c.format);
    CHECK(r.meta["passed_through"] == true);
    const std::string head = "Image " + path.string() + ": " + c.format + ", ";
    CHECK(t.text.starts_with(head));
    const std::string frames = ". Animated, " + std::to_string(c.pages) + " frames";
    CHECK(t.text.ends_with(". Sent unchanged" + (c.pages > 1 ? frames : "") + "."));
  }
  SUBCASE("pass-through costs a read and a base64 encoding, no decoding") {
    dir.write("noisy.png", encode_picture({1400, 960, 3, Pattern::noise}, ".png"));
    const std::string size = size_text(slurp(dir.path() / "noisy.png").size());
    const auto t0 = std::chrono::steady_clock::now();
    const auto r = read(dir, "noisy.png");
    const double took = seconds_since(t0);
    MESSAGE(size << " PNG passed through in " << took * 1000 << " ms");
    CHECK(r.meta["passed_through"] == true);
  }
}

TEST_CASE("image: a 24-megapixel JPEG is downscaled to 2000 px") {
  TempDir dir;
  const auto path =
      dir.write("big.jpg", encode_picture({6000, 4000, 3, Pattern::photo}, ".jpg[Q=90]"));
  const auto t0 = std::chrono::steady_clock::now();
  const auto o = read(dir, "big.jpg");
  const double took = seconds_since(t0);
  MESSAGE("24 MP JPEG (" << size_text(slurp(path).size()) << ") to 2000 px: " << took * 1000
                         << " ms");
  const Sent s = sent(o);
  CHECK(s.mime == "image/jpeg");
  CHECK(s.image.width == 2000);
  CHECK(s.image.height == 1333);
  CHECK(s.text == "Image " + path.string() + ": JPEG, 6000×4000 px, " +
                      size_text(slurp(path).size()) + ". Sent as JPEG, 2000×1333 px (" +
                      size_text(s.bytes.size()) +
                      "); multiply coordinates in the sent image by 3 to get original pixels. "
                      "Downscaled from 6000×4000.");
  CHECK(o.meta["scale"] == 3.0);
  CHECK(o.meta["passed_through"] == false);
  CHECK(o.meta["note"] == "downscaled from 6000×4000");

  SUBCASE("a smaller max_edge is honoured") {
    ImageLimits limits;
    limits.max_edge = 1568;
    const Sent t = sent(read(dir, "big.jpg", limits));
    CHECK(t.image.width == 1568);
    CHECK(t.text.find("multiply coordinates in the sent image by 3.827 to get original pixels") !=
          std::string::npos);
  }
}

TEST_CASE("image: pixel guard refuses huge dimensions before decoding") {
  TempDir dir;
  const auto bomb = dir.write("bomb.png", png_claiming(60000, 60000));
  const auto o = read(dir, "bomb.png");
  REQUIRE(o.is_error);
  CHECK(text_of(o) ==
        bomb.string() +
            " is a PNG image of 60000×60000 px (3600.0 megapixels), more "
            "than the limit of 100 megapixels, so it was not decoded (a guard against "
            "decompression bombs). If the file is trusted, start mcp-read with a larger "
            "--image-max-pixels.");

  // A 108-megapixel JPEG shrinks by 4 per side while it is decoded: 6.75 megapixels, allowed.
  dir.write("huge.jpg", encode_picture({12000, 9000}, ".jpg"));
  const Sent s = sent(read(dir, "huge.jpg"));
  CHECK(s.image.width == 2000);
  CHECK(s.image.height == 1500);
  ImageLimits limits;
  limits.max_pixels = 5'000'000;
  const auto refused = read(dir, "huge.jpg", limits);
  REQUIRE(refused.is_error);
  CHECK(text_of(refused).find("12000×9000 px (108.0 megapixels)") != std::string::npos);

  limits.max_pixels = 1000;
  dir.write("small.gif", encode_picture({64, 48}, ".gif"));
  const auto low = read(dir, "small.gif", limits);
  REQUIRE(low.is_error);
  CHECK(text_of(low).find("64×48 px (0.0 megapixels), more than the limit of 0.001 megapixels") !=
        std::string::npos);
}

TEST_CASE("image: other formats are converted to PNG or JPEG") {
  TempDir dir;
  struct Case {
    const char* name; std::string bytes; const char *format, *mime; int w, h; const char* note;
  };
  std::string why_heic, why_avif;
  const std::string heic = encode_picture({640, 480}, ".heic", &why_heic);
  const std::string avif = encode_picture({640, 480}, ".avif", &why_avif);
  if (heic.empty()) MESSAGE("HEIC encoder unavailable, HEIC not tested: " << why_heic);
  if (avif.empty()) MESSAGE("AVIF encoder unavailable, AVIF not tested: " << why_avif);
  const Case cases[] = {
      {"a.bmp", encode_picture({640, 480}, ".bmp"), "BMP", "image/png", 640, 480,
       "converted from BMP"},
      // Under 16 px to begin with: sent at its size (it once could "not be made to fit").
      {"tiny.bmp", encode_picture({4, 4}, ".bmp"), "BMP", "image/png", 4, 4, "converted from BMP"},
      {"a.tif", encode_picture({640, 480}, ".tif"), "TIFF", "image/jpeg", 640, 480,
       "converted from TIFF"},
      {"alpha.tif", encode_picture({64, 48, 4}, ".tif"), "TIFF", "image/png", 64, 48,
       "converted from TIFF"},
      {"a.heic", heic, "HEIC", "image/jpeg", 640, 480, "converted from HEIC"},
      {"a.avif", avif, "AVIF", "image/jpeg", 640, 480, "converted from AVIF"},
      {"pages.tif", encode_picture({64, 48, 3, Pattern::gradient, 3}, ".tif"), "TIFF", "image/jpeg",
       64, 48, "converted from TIFF; first page of 3"},
      {"a.jxl", encode_picture({640, 480}, ".jxl"), "JXL", "image/jpeg", 640, 480,
       "converted from JXL"},
      {"one.ico", encode_picture({48, 48, 4}, ".ico"), "ICO", "image/png", 48, 48,
       "converted from ICO"},
      {"sizes.ico", ico_with_sizes({16, 64, 32}), "ICO", "image/png", 64, 64,
       "converted from ICO; largest of 3 icon sizes"},
      {"screen.png", encode_picture({2400, 1600, 4, Pattern::gradient, 1, true}, ".png"), "PNG",
       "image/png", 2000, 1333, "downscaled from 2400×1600"},
      {"rotated.jpg", jpeg_with_orientation({300, 200, 3, Pattern::halves}, 6), "JPEG",
       "image/jpeg", 200, 300, "EXIF orientation applied"},
      {"deep.png", png16({64, 48}), "PNG", "image/png", 64, 48, "16-bit samples reduced to 8-bit"},
      {"cmyk.jpg", cmyk_jpeg({64, 48}), "JPEG", "image/jpeg", 64, 48, "CMYK converted to sRGB"},
      {"small.svg", svg_text(100, 80), "SVG", "image/png", 800, 640,
       "rendered from SVG on white; enlarged from 100×80 to be legible"},
      {"mid.svg", svg_text(600, 400), "SVG", "image/png", 600, 400, "rendered from SVG on white"},
      {"big.svg", svg_text(4000, 3000), "SVG", "image/png", 2000, 1500,
       "rendered from SVG on white; downscaled from 4000×3000"},
  };
  for (const Case& c : cases) {
    if (c.bytes.empty()) continue;
    const std::string name = c.name;
    CAPTURE(name);
#if defined(_WIN32)
    // Read through ImageMagick's loader, which sharp's libvips lacks: refused, named for what
    // they are rather than called perhaps corrupt, with what to do.
    if (name.ends_with(".ico") || name.ends_with(".bmp")) {
      dir.write(c.name, c.bytes);
      const auto refused = read(dir, c.name);
      CHECK(refused.is_error);
      const std::string format = name.ends_with(".ico") ? "ICO" : "BMP";
      CHECK(text_of(refused) == (dir.path() / name).string() + " looks like " + (format == "ICO" ? "an " : "a ") +
                                    format + " image, which this build of libvips cannot decode (it has no " +
                                    "ImageMagick loader, which reads " + format + " files); convert it to PNG to " +
                                    "read it.");
      continue;
    }
#endif
    dir.write(c.name, c.bytes);
    const auto o = read(dir, c.name);
    const Sent s = sent(o);
    CHECK(s.mime == c.mime);
    CHECK(s.image.width == c.w);
    CHECK(s.image.height == c.h);
    const bool alpha = name.find("alpha") != std::string::npos || name.ends_with(".ico");
    CHECK(s.image.bands == (alpha ? 4 : 3));
    CHECK_FALSE(s.image.sixteen_bit);
    CHECK(s.image.orientation == 1);
    CHECK(o.meta["original_format"] == c.format);
    CHECK(o.meta["passed_through"] == false);
    CHECK(o.meta["note"] == c.note);
    std::string note = c.note;
    if (note[0] >= 'a' && note[0] <= 'z') note[0] = static_cast<char>(note[0] - 'a' + 'A');
    CAPTURE(s.text);
    CHECK(s.text.ends_with(". " + note + "."));
  }
  SUBCASE("EXIF orientation 6 turns the stored image clockwise: its left half ends on top") {
    const Sent s = sent(read(dir, "rotated.jpg"));
    CHECK(pixel_at(s.bytes, 100, 20).at(0) < 60);
    CHECK(pixel_at(s.bytes, 100, 280).at(0) > 200);
  }
  SUBCASE("SVG: drawn on white, shapes kept") {
    const Sent s = sent(read(dir, "small.svg"));
    CHECK(pixel_at(s.bytes, 5, 5).at(0) > 250);    // transparent background -> white
    CHECK(pixel_at(s.bytes, 400, 320).at(0) < 5);  // the black rectangle
    CHECK(s.text.find("multiply coordinates in the sent image by 0.125") != std::string::npos);
  }
}
