// Images through read_file (classification, then read_image) and encode_for_model. Every fixture
// is made at test time with libvips; what was sent is decoded back to check it.
#include "fixtures.hpp"
#include "mcpread/readers/base64.hpp"
#include "reader_fixtures.hpp"
#include "image_fixtures.hpp"

#include "mcpread/readers/image.hpp"
#include "mcpread/readers/read.hpp"

#include <doctest/doctest.h>

#include <sys/stat.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <thread>

using namespace mcpread::readers;
using namespace mcpread::test;

namespace {

ReadOutcome read(const TempDir& dir, const std::string& name, const ImageLimits& image = {},
                 std::optional<FileKind> kind = {}, const CancelToken& cancel = {}) {
  ReadRequest request;
  request.file_path = name;
  request.forced_kind = kind;
  ReadLimits limits;
  limits.image = image;
  return read_file(roots_of(dir), request, limits, cancel);
}

std::string text_of(const ReadOutcome& o) {
  REQUIRE_FALSE(o.blocks.empty());
  return std::get<TextBlock>(o.blocks.front()).text;
}

// What read_file sent: the text block, then the image block, decoded.
struct Sent {
  std::string text;
  std::string mime;
  std::string bytes;
  DecodedImage image;
};

Sent sent(const ReadOutcome& o) {
  const std::string first = o.blocks.empty() ? std::string("no blocks") : text_of(o);
  INFO(first);
  REQUIRE_FALSE(o.is_error);
  REQUIRE(o.blocks.size() == 2);
  Sent s;
  s.text = std::get<TextBlock>(o.blocks[0]).text;
  const auto& block = std::get<ImageBlock>(o.blocks[1]);
  s.mime = block.mime_type;
  s.bytes = std::string(mcpread::readers::view_of(block.data));
  s.image = decode_image(s.bytes);
  CHECK(s.image.ok);
  CHECK(o.meta["sent_bytes"] == mcpread::readers::base64_size(block.data.size()));
  CHECK(o.meta["sent_mime"] == s.mime);
  CHECK(o.meta["width"] == s.image.width);
  CHECK(o.meta["height"] == s.image.height);
  return s;
}

// The readers' size wording: bytes below 1 KB, else one decimal of KB or MB.
std::string size_text(std::uint64_t n) {
  if (n < 1024) return std::to_string(n) + " bytes";
  double v = static_cast<double>(n) / 1024;
  const char* unit = v < 1024 ? "KB" : "MB";
  if (v >= 1024) v /= 1024;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return std::string(buf) + " " + unit;
}

std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

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

TEST_CASE("image: errors name the file, what it is and what to do") {
  TempDir dir;
  const std::string jpeg = encode_picture({640, 480, 3, Pattern::noise}, ".jpg");
  const std::string png = encode_picture({640, 480, 3, Pattern::noise}, ".png");
  const auto half_jpeg = dir.write("half.jpg", jpeg.substr(0, jpeg.size() / 2));
  const auto half_png = dir.write("half.png", png.substr(0, png.size() / 2));
  const auto noise = dir.write("noise.bin", random_bytes(5000));
  const auto empty = dir.write("empty.png", "");

  auto o = read(dir, "half.jpg");
  REQUIRE(o.is_error);
  CHECK(text_of(o) ==
        half_jpeg.string() +
            " is a JPEG image (640×480 px) that cannot be decoded; it "
            "is probably truncated or corrupt (VipsJpeg: Premature end of input file). "
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
  CHECK(text_of(o).starts_with(mvg.string() +
                               " is not an image libvips can decode (it may be "
                               "truncated or corrupt, or not an image at all): only ImageMagick "
                               "recognises it, and mcp-read lets ImageMagick read BMP, ICO, CUR, "
                               "PSD, SGI, Sun raster and PCX files only. Its content looks like "));
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
TEST_CASE("image: whatever libvips loads is read") {
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
  std::filesystem::create_symlink(target, dir.path() / "link.png");
  struct stat before {};
  REQUIRE(::stat(target.c_str(), &before) == 0);
  for (const char* name : {"really-png.jpg", "noext", "link.png"}) {
    CAPTURE(name);
    const auto o = read(dir, name);
    const Sent s = sent(o);
    CHECK(s.mime == "image/png");
    CHECK(o.meta["original_format"] == "PNG");
    CHECK(s.bytes == png);
  }
  CHECK(read(dir, "link.png").meta["path"] == target.string());
  struct stat after {};
  REQUIRE(::stat(target.c_str(), &after) == 0);
  CHECK(after.st_mtim.tv_sec == before.st_mtim.tv_sec);
  CHECK(after.st_mtim.tv_nsec == before.st_mtim.tv_nsec);
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
