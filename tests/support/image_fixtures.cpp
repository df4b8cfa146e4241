#include "image_fixtures.hpp"

#include <vips/vips.h>

#include <array>
#include <cstdint>
#include <cstring>
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

void init_vips() {
  static std::once_flag once;
  std::call_once(once, [] {
    if (VIPS_INIT("mcpread-tests") != 0) throw std::runtime_error("vips_init failed");
  });
}

std::string vips_error() {
  std::string e = vips_error_buffer();
  vips_error_clear();
  return e;
}

// `out` by reference: it is read after the call that fills it (argument order is unspecified).
Img check(int rc, VipsImage*& out, const char* what) {
  if (rc != 0 || out == nullptr) throw std::runtime_error(std::string(what) + ": " + vips_error());
  return Img(out);
}

// Applies a libvips operation `op(in, &out)` and returns the result.
template <typename Op>
Img apply(const Img& in, const char* what, Op op) {
  VipsImage* out = nullptr;
  const int rc = op(in.get(), &out);
  return check(rc, out, what);
}

Img join(const std::vector<VipsImage*>& bands) {
  VipsImage* out = nullptr;
  auto* arr = const_cast<VipsImage**>(bands.data());
  return check(vips_bandjoin(arr, &out, static_cast<int>(bands.size()), nullptr), out, "bandjoin");
}

Img band(const Img& in, int b) {
  return apply(in, "extract_band",
               [&](VipsImage* i, VipsImage** o) { return vips_extract_band(i, o, b, nullptr); });
}

Img linear(const Img& in, double a, double b) {
  return apply(in, "linear",
               [&](VipsImage* i, VipsImage** o) { return vips_linear1(i, o, a, b, nullptr); });
}

Img noise(int w, int h, double sigma) {
  VipsImage* out = nullptr;
  return check(vips_gaussnoise(&out, w, h, "sigma", sigma, "mean", 0.0, nullptr), out, "noise");
}

// The picture as 8-bit sRGB (or grey), all pages stacked vertically.
Img make(const Picture& p) {
  init_vips();
  const int w = p.width, h = p.height * p.pages;
  VipsImage* xyz_raw = nullptr;
  const Img xyz = check(vips_xyz(&xyz_raw, w, h, nullptr), xyz_raw, "xyz");
  const Img x = band(xyz, 0), y = band(xyz, 1);
  Img r, g, b;
  if (p.pattern == Pattern::halves) {
    r = apply(x, "relational", [&](VipsImage* i, VipsImage** o) {
      return vips_relational_const1(i, o, VIPS_OPERATION_RELATIONAL_MOREEQ, w / 2.0, nullptr);
    });
    g = linear(r, 1, 0);
    b = linear(r, 1, 0);
  } else {
    r = linear(x, 255.0 / w, 0);
    g = linear(y, 255.0 / h, 0);
    b = linear(x, -200.0 / w, 230);
    if (p.pattern == Pattern::noise || p.pattern == Pattern::photo) {
      const double sigma = p.pattern == Pattern::noise ? 70 : 12;
      const Img n1 = noise(w, h, sigma), n2 = noise(w, h, sigma), n3 = noise(w, h, sigma);
      const auto add = [](const Img& a, const Img& c) {
        return apply(a, "add",
                     [&](VipsImage* i, VipsImage** o) { return vips_add(i, c.get(), o, nullptr); });
      };
      r = add(r, n1);
      g = add(g, n2);
      b = add(b, n3);
    }
  }
  // 128 at the top to 255 at the bottom, or 255 everywhere.
  const Img alpha = p.opaque_alpha ? linear(y, 0, 255) : linear(y, 127.0 / h, 128);
  std::vector<VipsImage*> parts;
  if (p.bands >= 3)
    parts = {r.get(), g.get(), b.get()};
  else
    parts = {g.get()};
  if (p.bands == 2 || p.bands == 4) parts.push_back(alpha.get());
  const Img joined = join(parts);
  const Img cast = apply(joined, "cast", [](VipsImage* i, VipsImage** o) {
    return vips_cast(i, o, VIPS_FORMAT_UCHAR, nullptr);
  });
  Img out = apply(cast, "copy", [&](VipsImage* i, VipsImage** o) {
    return vips_copy(i, o, "interpretation",
                     p.bands >= 3 ? VIPS_INTERPRETATION_sRGB : VIPS_INTERPRETATION_B_W, nullptr);
  });
  if (p.pages > 1) vips_image_set_int(out.get(), "page-height", p.height);
  // Materialise, so that the savers below never re-run the noise generator per tile.
  VipsImage* mem = vips_image_copy_memory(out.get());
  return check(0, mem, "copy_memory");
}

std::string take(void* buf, std::size_t len) {
  std::string s(static_cast<const char*>(buf), len);
  g_free(buf);
  return s;
}

std::uint32_t crc32(const unsigned char* p, std::size_t n) {
  std::uint32_t c = 0xFFFFFFFFu;
  for (std::size_t i = 0; i < n; ++i) {
    c ^= p[i];
    for (int k = 0; k < 8; ++k) c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
  }
  return c ^ 0xFFFFFFFFu;
}

}  // namespace

std::string encode_picture(const Picture& picture, const std::string& suffix, std::string* why) {
  const Img im = make(picture);
  void* buf = nullptr;
  std::size_t len = 0;
  int rc = 0;
  if (suffix == ".bmp" || suffix == ".ico")
    rc = vips_magicksave_buffer(im.get(), &buf, &len, "format", suffix == ".bmp" ? "BMP3" : "ICO",
                                nullptr);
  else
    rc = vips_image_write_to_buffer(im.get(), suffix.c_str(), &buf, &len, nullptr);
  if (rc != 0) {
    const std::string e = vips_error();
    if (why) *why = e;
    return {};
  }
  return take(buf, len);
}

std::string jpeg_with_orientation(const Picture& picture, int orientation) {
  const Img im = make(picture);
  Img copy =
      apply(im, "copy", [](VipsImage* i, VipsImage** o) { return vips_copy(i, o, nullptr); });
  vips_image_set_int(copy.get(), "orientation", orientation);
  void* buf = nullptr;
  std::size_t len = 0;
  if (vips_jpegsave_buffer(copy.get(), &buf, &len, nullptr) != 0)
    throw std::runtime_error("jpegsave: " + vips_error());
  return take(buf, len);
}

std::string cmyk_jpeg(const Picture& picture) {
  const Img im = make(picture);
  const Img cmyk = apply(im, "colourspace CMYK", [](VipsImage* i, VipsImage** o) {
    return vips_colourspace(i, o, VIPS_INTERPRETATION_CMYK, nullptr);
  });
  void* buf = nullptr;
  std::size_t len = 0;
  if (vips_jpegsave_buffer(cmyk.get(), &buf, &len, nullptr) != 0)
    throw std::runtime_error("jpegsave cmyk: " + vips_error());
  return take(buf, len);
}

std::string png16(const Picture& picture) {
  const Img im = make(picture);
  const Img deep = apply(im, "colourspace RGB16", [](VipsImage* i, VipsImage** o) {
    return vips_colourspace(i, o, VIPS_INTERPRETATION_RGB16, nullptr);
  });
  void* buf = nullptr;
  std::size_t len = 0;
  if (vips_pngsave_buffer(deep.get(), &buf, &len, nullptr) != 0)
    throw std::runtime_error("pngsave 16: " + vips_error());
  return take(buf, len);
}

std::string png_claiming(unsigned width, unsigned height) {
  std::string png = encode_picture(Picture{8, 8}, ".png");
  // The IHDR chunk follows the 8-byte signature: length(4) "IHDR"(4) width(4) height(4) ... crc.
  auto put = [&](std::size_t at, std::uint32_t v) {
    for (int i = 0; i < 4; ++i) png[at + i] = static_cast<char>((v >> (24 - 8 * i)) & 0xFF);
  };
  put(16, width);
  put(20, height);
  put(29, crc32(reinterpret_cast<const unsigned char*>(png.data()) + 12, 17));
  return png;
}

std::string ico_with_sizes(const std::vector<int>& sizes) {
  std::string head, data;
  const auto le = [](std::string& s, std::uint32_t v, int n) {
    for (int i = 0; i < n; ++i) s.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
  };
  le(head, 0, 2);
  le(head, 1, 2);
  le(head, static_cast<std::uint32_t>(sizes.size()), 2);
  const auto first_offset = static_cast<std::uint32_t>(6 + 16 * sizes.size());
  for (const int size : sizes) {
    const std::string png = encode_picture(Picture{size, size, 4}, ".png");
    head.push_back(static_cast<char>(size >= 256 ? 0 : size));
    head.push_back(static_cast<char>(size >= 256 ? 0 : size));
    le(head, 0, 2);   // no palette, reserved
    le(head, 1, 2);   // planes
    le(head, 32, 2);  // bits per pixel
    le(head, static_cast<std::uint32_t>(png.size()), 4);
    le(head, first_offset + static_cast<std::uint32_t>(data.size()), 4);
    data += png;
  }
  return head + data;
}

std::string svg_text(int width, int height) {
  const std::string w = std::to_string(width), h = std::to_string(height);
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
         "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" +
         w + "\" height=\"" + h + "\" viewBox=\"0 0 " + w + " " + h +
         "\">\n"
         "  <rect x=\"" +
         std::to_string(width / 4) + "\" y=\"" + std::to_string(height / 4) + "\" width=\"" +
         std::to_string(width / 2) + "\" height=\"" + std::to_string(height / 2) +
         "\" fill=\"#000000\"/>\n</svg>\n";
}

namespace {

void put32(std::string& out, std::uint32_t v) {
  for (int k = 0; k < 4; ++k) out += static_cast<char>((v >> (8 * k)) & 0xFF);
}
void put_float(std::string& out, float f) {
  std::uint32_t v = 0;
  std::memcpy(&v, &f, sizeof v);
  put32(out, v);
}
void attribute(std::string& out, const std::string& name, const std::string& type, const std::string& value) {
  out += name + '\0' + type + '\0';
  put32(out, static_cast<std::uint32_t>(value.size()));
  out += value;
}

}  // namespace

// The layout of OpenEXR's file format document: magic, version, header attributes, the offset
// table (one scanline per chunk without compression), then each line's channels in name order.
std::string exr_rgb(int width, int height, float peak) {
  std::string out("\x76\x2f\x31\x01\x02\0\0\0", 8);
  std::string channels;
  for (const char* c : {"B", "G", "R"}) {
    channels += std::string(c) + '\0';
    put32(channels, 2);                        // FLOAT
    channels += std::string("\0\0\0\0", 4);  // pLinear, reserved
    put32(channels, 1);
    put32(channels, 1);
  }
  channels += '\0';
  std::string box;
  for (int v : {0, 0, width - 1, height - 1}) put32(box, static_cast<std::uint32_t>(v));
  std::string one, center;
  put_float(one, 1.0f);
  put_float(center, 0.0f);
  put_float(center, 0.0f);
  attribute(out, "channels", "chlist", channels);
  attribute(out, "compression", "compression", std::string(1, '\0'));
  attribute(out, "dataWindow", "box2i", box);
  attribute(out, "displayWindow", "box2i", box);
  attribute(out, "lineOrder", "lineOrder", std::string(1, '\0'));
  attribute(out, "pixelAspectRatio", "float", one);
  attribute(out, "screenWindowCenter", "v2f", center);
  attribute(out, "screenWindowWidth", "float", one);
  out += '\0';
  const std::size_t line_bytes = 3 * 4 * static_cast<std::size_t>(width);
  const std::size_t first = out.size() + 8 * static_cast<std::size_t>(height);
  for (int y = 0; y < height; ++y) {
    const std::uint64_t at = first + static_cast<std::uint64_t>(y) * (8 + line_bytes);
    put32(out, static_cast<std::uint32_t>(at));
    put32(out, static_cast<std::uint32_t>(at >> 32));
  }
  for (int y = 0; y < height; ++y) {
    put32(out, static_cast<std::uint32_t>(y));
    put32(out, static_cast<std::uint32_t>(line_bytes));
    for (int x = 0; x < width; ++x) put_float(out, 0.25f);
    for (int x = 0; x < width; ++x) put_float(out, 0.5f);
    for (int x = 0; x < width; ++x) put_float(out, width > 1 ? peak * static_cast<float>(x) / static_cast<float>(width - 1) : 0.0f);
  }
  return out;
}

std::string netpbm(int width, int height, int bands) {
  std::string out = (bands == 1 ? "P5\n" : "P6\n") + std::to_string(width) + " " + std::to_string(height) + "\n255\n";
  const std::size_t n = static_cast<std::size_t>(width) * static_cast<std::size_t>(height) * static_cast<std::size_t>(bands);
  for (std::size_t i = 0; i < n; ++i) out += static_cast<char>(i % 256);
  return out;
}

std::string random_bytes(std::size_t count) {
  std::mt19937 gen(12345);
  std::string s(count, '\0');
  for (char& c : s) c = static_cast<char>(gen() & 0xFF);
  return s;
}

DecodedImage decode_image(std::string_view bytes) {
  init_vips();
  DecodedImage d;
  VipsImage* raw = vips_image_new_from_buffer(bytes.data(), bytes.size(), "", nullptr);
  if (raw == nullptr) {
    d.error = vips_error();
    return d;
  }
  const Img im(raw);
  const char* loader = nullptr;
  if (vips_image_get_string(im.get(), "vips-loader", &loader) == 0 && loader) d.loader = loader;
  d.width = im->Xsize;
  d.height = vips_image_get_page_height(im.get());
  d.bands = im->Bands;
  d.pages = vips_image_get_n_pages(im.get());
  d.orientation = vips_image_get_orientation(im.get());
  d.sixteen_bit = im->BandFmt == VIPS_FORMAT_USHORT;
  // Decode every pixel, so that a truncated or corrupt result fails here.
  double avg = 0;
  if (vips_avg(im.get(), &avg, nullptr) != 0) {
    d.error = vips_error();
    return d;
  }
  d.ok = true;
  return d;
}

std::vector<double> pixel_at(std::string_view bytes, int x, int y) {
  init_vips();
  VipsImage* raw = vips_image_new_from_buffer(bytes.data(), bytes.size(), "", nullptr);
  if (raw == nullptr) return {};
  const Img im(raw);
  double* values = nullptr;
  int n = 0;
  if (vips_getpoint(im.get(), &values, &n, x, y, nullptr) != 0) return {};
  std::vector<double> out(values, values + n);
  g_free(values);
  return out;
}

std::string base64_decode(std::string_view text) {
  static constexpr std::string_view alphabet =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve(text.size() / 4 * 3);
  std::uint32_t acc = 0;
  int bits = 0;
  for (const char c : text) {
    if (c == '=') break;
    const std::size_t v = alphabet.find(c);
    if (v == std::string_view::npos) throw std::runtime_error("invalid base64");
    acc = (acc << 6) | static_cast<std::uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<char>((acc >> bits) & 0xFF));
    }
  }
  return out;
}

}  // namespace mcpread::test
