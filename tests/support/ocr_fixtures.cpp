#include "ocr_fixtures.hpp"

#include "pdf_fixtures.hpp"

#include <vips/vips.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <random>
#include <stdexcept>

namespace mcpread::test {
namespace {

struct Unref {
  void operator()(VipsImage* im) const { g_object_unref(im); }
};
using Img = std::unique_ptr<VipsImage, Unref>;

// `out` by reference: it is read after the call that fills it (argument order is unspecified).
Img check(int rc, VipsImage*& out, const char* what) {
  if (rc != 0 || out == nullptr) {
    std::string e = vips_error_buffer();
    vips_error_clear();
    throw std::runtime_error(std::string(what) + ": " + e);
  }
  return Img(out);
}

Img render(const TextPicture& p) {
  static std::once_flag once;
  std::call_once(once, [] {
    if (VIPS_INIT("mcpread-tests") != 0) throw std::runtime_error("vips_init failed");
  });
  if (p.noise || p.photo || p.shaded || p.lines.empty()) {
    std::string px(static_cast<std::size_t>(p.width) * static_cast<std::size_t>(p.height), '\xFF');
    std::mt19937 rng(42);
    if (p.noise)
      for (char& c : px) c = static_cast<char>(rng() & 0xFF);
    if (p.photo)  // light falling across, and shapes of every tone
      for (int y = 0; y < p.height; ++y)
        for (int x = 0; x < p.width; ++x) {
          const double v = 40 + 150.0 * x / p.width + 45 * std::sin(x / 37.0) * std::cos(y / 53.0) +
                           20 * std::sin((x + 2 * y) / 17.0);
          px[static_cast<std::size_t>(y) * static_cast<std::size_t>(p.width) + static_cast<std::size_t>(x)] =
              static_cast<char>(static_cast<unsigned char>(std::clamp(v, 0.0, 255.0)));
        }
    if (p.shaded)  // a brown table: grain, a soft shadow over a quarter of it, light falling across
      for (int y = 0; y < p.height; ++y)
        for (int x = 0; x < p.width; ++x) {
          const double dx = (x - 0.3 * p.width) / (0.25 * p.width), dy = (y - 0.35 * p.height) / (0.3 * p.height);
          const double shadow = 45 * std::exp(-(dx * dx + dy * dy));
          const double v = 110 + 12.0 * y / p.height + 6 * std::sin(x / 41.0 + y / 97.0) - shadow;
          px[static_cast<std::size_t>(y) * static_cast<std::size_t>(p.width) + static_cast<std::size_t>(x)] =
              static_cast<char>(static_cast<unsigned char>(std::clamp(v, 0.0, 255.0)));
        }
    VipsImage* mem = vips_image_new_from_memory_copy(px.data(), px.size(), p.width, p.height, 1, VIPS_FORMAT_UCHAR);
    return check(mem == nullptr ? -1 : 0, mem, "new_from_memory");
  }
  std::string markup;
  for (const auto& line : p.lines) markup += (markup.empty() ? "" : "\n") + line;
  VipsImage* ink = nullptr;
  const std::string font = "DejaVu Sans " + std::to_string(p.points);
  Img mask = check(vips_text(&ink, markup.c_str(), "font", font.c_str(), "dpi", p.dpi, nullptr), ink, "text");
  VipsImage* out = nullptr;
  Img paper = check(vips_invert(mask.get(), &out, nullptr), out, "invert");
  double white[] = {255};
  VipsArrayDouble* background = vips_array_double_new(white, 1);
  const int w = vips_image_get_width(paper.get()) + 2 * p.margin;
  const int h = vips_image_get_height(paper.get()) + 2 * p.margin;
  const int rc = vips_embed(paper.get(), &out, p.margin, p.margin, w, h, "extend", VIPS_EXTEND_BACKGROUND,
                            "background", background, nullptr);
  vips_area_unref(VIPS_AREA(background));
  Img page = check(rc, out, "embed");
  const int turns = ((p.quarter_turns % 4) + 4) % 4;
  if (turns != 0) {
    const VipsAngle angle = turns == 1 ? VIPS_ANGLE_D90 : turns == 2 ? VIPS_ANGLE_D180 : VIPS_ANGLE_D270;
    page = check(vips_rot(page.get(), &out, angle, nullptr), out, "rot");
  }
  return page;
}

}  // namespace

std::string text_pixels(const TextPicture& picture, int* width, int* height) {
  Img img = render(picture);
  std::size_t size = 0;
  void* mem = vips_image_write_to_memory(img.get(), &size);
  if (mem == nullptr) throw std::runtime_error("write_to_memory failed");
  std::string px(static_cast<const char*>(mem), size);
  g_free(mem);
  *width = vips_image_get_width(img.get());
  *height = vips_image_get_height(img.get());
  return px;
}

std::string text_png(const TextPicture& picture) {
  Img img = render(picture);
  void* buf = nullptr;
  std::size_t len = 0;
  if (vips_pngsave_buffer(img.get(), &buf, &len, nullptr) != 0) throw std::runtime_error("pngsave failed");
  std::string png(static_cast<const char*>(buf), len);
  g_free(buf);
  return png;
}

std::string scanned_pdf(const std::vector<TextPicture>& pictures) {
  std::vector<PdfPage> pages;
  for (const auto& picture : pictures) {
    PdfPage page;
    page.kind = PdfPage::Kind::scan;
    page.scan = text_pixels(picture, &page.scan_width, &page.scan_height);
    page.width = page.scan_width * 72.0 / picture.dpi;
    page.height = page.scan_height * 72.0 / picture.dpi;
    pages.push_back(std::move(page));
  }
  return make_pdf(pages);
}

}  // namespace mcpread::test

namespace mcpread::test {

namespace {

#if defined(_WIN32)
std::string tessdata_folder() {
  const char* tessdata = std::getenv("TESSDATA_PREFIX");
  if (tessdata == nullptr) throw std::runtime_error("TESSDATA_PREFIX is not set: the Windows runs name the data folder");
  return tessdata;
}
#else
std::string package_of(const std::string& lang) {
  std::string package = "tesseract-ocr-" + lang;
  std::replace(package.begin(), package.end(), '_', '-');
  return package;
}
#endif

}  // namespace

std::string missing_language_note(const std::string& lang) {
#if defined(_WIN32)
  return "No OCR language data for " + lang + " is installed (put " + lang + ".traineddata from Tesseract's tessdata in " +
         tessdata_folder() + ").";
#else
  return "No OCR language data for " + lang + " is installed (Debian package " + package_of(lang) + ").";
#endif
}

std::string language_data_source(const std::string& lang) {
#if defined(_WIN32)
  return "put " + lang + ".traineddata from Tesseract's tessdata in " + tessdata_folder();
#else
  return "Debian's " + package_of(lang);
#endif
}

}  // namespace mcpread::test
