#include "vips_api.hpp"
#include "dl_symbol.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <mutex>

namespace mcpread::readers::vips {
namespace {

struct Loaded {
  Api api{};
  std::string error;  // empty when api is usable
};

template <typename Fn>
bool bind(void* lib, const char* name, Fn* slot, std::string* error) {
  if (load_symbol(lib, name, slot)) return true;
  *error = std::string(
               "Reading images needs libvips 8.14 or later (Debian package libvips42): "
               "libvips.so.42 has no ") +
           name + ".";
  return false;
}

Loaded load() {
  Loaded l;
  void* lib = ::dlopen("libvips.so.42", RTLD_NOW | RTLD_LOCAL);
  if (lib == nullptr) {
    const char* why = ::dlerror();
    l.error = std::string("Reading images needs libvips (Debian package libvips42): ") +
              (why ? why : "libvips.so.42 cannot be loaded") + ".";
    return l;
  }
  Api& a = l.api;
  std::string& e = l.error;
  // g_object_unref and g_free come from GLib, a dependency of libvips: dlsym on the libvips
  // handle searches its dependencies too.
  const bool ok =
      bind(lib, "vips_init", &a.init, &e) &&
      bind(lib, "vips_cache_set_max", &a.cache_set_max, &e) &&
      bind(lib, "vips_operation_block_set", &a.operation_block_set, &e) &&
      bind(lib, "vips_error_buffer_copy", &a.error_buffer_copy, &e) &&
      bind(lib, "vips_error_clear", &a.error_clear, &e) &&
      bind(lib, "vips_foreign_find_load_buffer", &a.foreign_find_load_buffer, &e) &&
      bind(lib, "vips_image_new_from_buffer", &a.image_new_from_buffer, &e) &&
      bind(lib, "vips_thumbnail_buffer", &a.thumbnail_buffer, &e) &&
      bind(lib, "vips_thumbnail_image", &a.thumbnail_image, &e) &&
      bind(lib, "vips_image_get_n_pages", &a.image_get_n_pages, &e) &&
      bind(lib, "vips_image_get_page_height", &a.image_get_page_height, &e) &&
      bind(lib, "vips_image_get_orientation", &a.image_get_orientation, &e) &&
      bind(lib, "vips_image_get_string", &a.image_get_string, &e) &&
      bind(lib, "vips_image_get_typeof", &a.image_get_typeof, &e) &&
      bind(lib, "vips_image_hasalpha", &a.image_hasalpha, &e) &&
      bind(lib, "vips_image_copy_memory", &a.image_copy_memory, &e) &&
      bind(lib, "vips_colourspace", &a.colourspace, &e) && bind(lib, "vips_cast", &a.cast, &e) &&
      bind(lib, "vips_flatten", &a.flatten, &e) &&
      bind(lib, "vips_extract_band", &a.extract_band, &e) && bind(lib, "vips_min", &a.min, &e) &&
      bind(lib, "vips_array_double_new", &a.array_double_new, &e) &&
      bind(lib, "vips_area_unref", &a.area_unref, &e) &&
      bind(lib, "vips_jpegsave_buffer", &a.jpegsave_buffer, &e) &&
      bind(lib, "vips_pngsave_buffer", &a.pngsave_buffer, &e) &&
      bind(lib, "g_object_unref", &a.object_unref, &e) && bind(lib, "g_free", &a.free, &e);
  decltype(&::g_log_set_handler) set_log_handler = nullptr;
  if (!ok || !bind(lib, "g_log_set_handler", &set_log_handler, &e))
    return l;  // the library stays loaded: unloading GLib-based libraries is unsafe
  // libvips reports failures through its error buffer, which ends up in the answer; its
  // warnings ("ignoring nclx profile", "error in tile ...") would only clutter the server's
  // stderr, which clients show as the server's log.
  set_log_handler(
      "VIPS",
      static_cast<GLogLevelFlags>(G_LOG_LEVEL_WARNING | G_LOG_LEVEL_MESSAGE | G_LOG_LEVEL_INFO |
                                  G_LOG_LEVEL_DEBUG),
      [](const gchar*, GLogLevelFlags, const gchar*, gpointer) {}, nullptr);
  if (a.init("mcp-read") != 0) {
    l.error = "Reading images needs libvips, which failed to start: " + take_error(a) + ".";
    return l;
  }
  a.cache_set_max(0);  // never keep decoded file contents between calls
  // Loaders for text formats that would otherwise turn a text file read as an image into a
  // "picture" of numbers.
  a.operation_block_set("VipsForeignLoadCsv", TRUE);
  a.operation_block_set("VipsForeignLoadMatrix", TRUE);
  return l;
}

const Loaded& loaded() {
  static std::once_flag once;
  static Loaded l;
  std::call_once(once, [] { l = load(); });
  return l;
}

}  // namespace

const Api* api(std::string* error) {
  const Loaded& l = loaded();
  if (!l.error.empty()) {
    if (error) *error = l.error;
    return nullptr;
  }
  return &l.api;
}

std::string take_error(const Api& api) {
  // Copied and cleared in one step, under libvips' lock.
  char* copy = api.error_buffer_copy();
  std::string text = copy != nullptr ? copy : "";
  api.free(copy);
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ' || text.back() == '.'))
    text.pop_back();
  for (std::size_t p = 0; (p = text.find('\n', p)) != std::string::npos;) text.replace(p, 1, "; ");
  if (text.empty()) text = "libvips gave no reason";
  return text;
}

Image& Image::operator=(Image&& o) noexcept {
  if (this != &o) {
    reset();
    api_ = o.api_;
    image_ = o.image_;
    o.image_ = nullptr;
  }
  return *this;
}

void Image::reset() {
  if (image_ != nullptr) api_->object_unref(image_);
  image_ = nullptr;
}

Image load_header(const Api& api, std::string_view bytes, const std::string& options,
                  std::string* error) {
  VipsImage* im = api.image_new_from_buffer(bytes.data(), bytes.size(), options.c_str(), "access",
                                            VIPS_ACCESS_SEQUENTIAL, nullptr);
  if (im == nullptr) *error = take_error(api);
  return Image(&api, im);
}

namespace {

std::string upper(std::string s) {
  for (char& c : s)
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  return s;
}

std::string format_of(const Api& api, VipsImage* im, std::string_view bytes,
                      std::string_view hint) {
  const char* loader = nullptr;
  if (api.image_get_string(im, "vips-loader", &loader) != 0 || loader == nullptr) loader = "";
  const std::string_view l = loader;
  const std::string base(l.substr(0, l.find("load")));  // "pngload_buffer" -> "png"
  const char* s = nullptr;
  std::string format;
  if (base == "heif") {
    const bool av1 =
        api.image_get_string(im, "heif-compression", &s) == 0 && s && std::string_view(s) == "av1";
    format = av1 || bytes.substr(4, 8) == "ftypavif" || hint == "image/avif" ? "AVIF" : "HEIC";
  } else if (base == "magick") {  // ImageMagick's names vary ("BMP3", "ICON"): sniff first
    if (bytes.starts_with(std::string_view("\0\0\1\0", 4)))
      format = "ICO";
    else if (bytes.starts_with(std::string_view("\0\0\2\0", 4)))
      format = "CUR";
    else if (bytes.starts_with("BM"))
      format = "BMP";
    else if (api.image_get_string(im, "magick-format", &s) == 0 && s && *s)
      format = upper(s);
    else if (hint.starts_with("image/"))
      format = upper(std::string(hint.substr(6)));
  } else {
    static constexpr std::array<std::pair<std::string_view, std::string_view>, 6> names = {
        {{"jp2k", "JPEG 2000"},
         {"rad", "Radiance HDR"},
         {"openexr", "OpenEXR"},
         {"ppm", "PNM"},
         {"pdf", "PDF"},
         {"vips", "VIPS"}}};
    format = upper(base);
    for (const auto& [k, v] : names)
      if (base == k) format = v;
  }
  api.error_clear();  // missing metadata fields leave messages behind
  return format.empty() ? "IMAGE" : format;
}

// Icon files hold several sizes and libvips loads the first, often 16×16: finds the largest.
void pick_largest_page(const Api& api, std::string_view bytes, Header* h) {
  h->page = 0;
  for (int p = 1; p < std::min(h->pages, 64); ++p) {
    std::string err;
    const Image im = load_header(api, bytes, "[page=" + std::to_string(p) + "]", &err);
    if (!im) continue;
    const auto w = static_cast<unsigned>(im->Xsize), ht = static_cast<unsigned>(im->Ysize);
    if (std::uint64_t{w} * ht > std::uint64_t{h->width} * h->height) {
      h->width = w;
      h->height = ht;
      h->page = p;
    }
  }
  api.error_clear();
}

}  // namespace

bool inspect(const Api& api, std::string_view bytes, std::string_view hint, Header* h,
             std::string* error) {
  const char* loader = api.foreign_find_load_buffer(bytes.data(), bytes.size());
  if (loader == nullptr) {
    *error = take_error(api);
    return false;
  }
  const bool magick_allowed = bytes.starts_with("BM") || bytes.starts_with("8BPS") ||
                              bytes.starts_with(std::string_view("\0\0\1\0", 4)) ||
                              bytes.starts_with(std::string_view("\0\0\2\0", 4));
  if (std::string_view(loader).starts_with("VipsForeignLoadMagick") && !magick_allowed) {
    *error =
        "only ImageMagick recognises it, and mcp-read lets ImageMagick read BMP, ICO, CUR "
        "and PSD files only";
    return false;
  }
  const Image im = load_header(api, bytes, "", error);
  if (!im) return false;
  h->format = format_of(api, im.get(), bytes, hint);
  h->width = static_cast<unsigned>(im->Xsize);
  h->height = static_cast<unsigned>(api.image_get_page_height(im.get()));
  h->pages = std::max(1, api.image_get_n_pages(im.get()));
  h->orientation = api.image_get_orientation(im.get());
  h->eight_bit = im->BandFmt == VIPS_FORMAT_UCHAR;
  h->sixteen_bit = im->BandFmt == VIPS_FORMAT_USHORT;
  h->cmyk = im->Type == VIPS_INTERPRETATION_CMYK;
  if ((h->format == "ICO" || h->format == "CUR") && h->pages > 1) pick_largest_page(api, bytes, h);
  return true;
}

Image thumbnail(const Api& api, std::string_view bytes, int box, bool upscale,
                const std::string& options, std::string* error) {
  VipsImage* out = nullptr;
  // libvips wraps the buffer without copying or writing to it.
  void* data = const_cast<char*>(bytes.data());
  if (api.thumbnail_buffer(data, bytes.size(), &out, box, "height", box, "size",
                           upscale ? VIPS_SIZE_BOTH : VIPS_SIZE_DOWN, "fail_on",
                           VIPS_FAIL_ON_TRUNCATED, "option_string", options.c_str(),
                           nullptr) != 0) {
    *error = take_error(api);
    return {};
  }
  return Image(&api, out);
}

Image shrink(const Api& api, VipsImage* in, int box, std::string* error) {
  VipsImage* out = nullptr;
  if (api.thumbnail_image(in, &out, box, "height", box, "size", VIPS_SIZE_DOWN, "no_rotate", TRUE,
                          nullptr) != 0) {
    *error = take_error(api);
    return {};
  }
  return Image(&api, out);
}

namespace {

// Runs one operation producing `*next` from `cur`; false with the error text on failure.
template <typename Op>
bool step(const Api& api, Image* cur, std::string* error, Op op) {
  VipsImage* out = nullptr;
  if (op(cur->get(), &out) != 0) {
    *error = take_error(api);
    return false;
  }
  *cur = Image(&api, out);
  return true;
}

}  // namespace

Image to_srgb8_in_memory(const Api& api, Image in, bool flatten, std::string* error) {
  Image cur = std::move(in);
  if (flatten && api.image_hasalpha(cur.get())) {
    const double white[4] = {255, 255, 255, 255};
    const int n = cur->Bands - 1;
    VipsArrayDouble* bg = api.array_double_new(white, n < 1 ? 1 : (n > 4 ? 4 : n));
    const bool ok = step(api, &cur, error, [&](VipsImage* i, VipsImage** o) {
      return api.flatten(i, o, "background", bg, nullptr);
    });
    api.area_unref(reinterpret_cast<VipsArea*>(bg));
    if (!ok) return {};
  }
  const VipsInterpretation type = cur->Type;
  if (type != VIPS_INTERPRETATION_sRGB && type != VIPS_INTERPRETATION_B_W &&
      type != VIPS_INTERPRETATION_RGB && type != VIPS_INTERPRETATION_MULTIBAND) {
    const VipsInterpretation target =
        cur->Bands >= 3 ? VIPS_INTERPRETATION_sRGB : VIPS_INTERPRETATION_B_W;
    if (!step(api, &cur, error,
              [&](VipsImage* i, VipsImage** o) { return api.colourspace(i, o, target, nullptr); }))
      return {};
  }
  if (cur->BandFmt != VIPS_FORMAT_UCHAR &&
      !step(api, &cur, error, [&](VipsImage* i, VipsImage** o) {
        return api.cast(i, o, VIPS_FORMAT_UCHAR, nullptr);
      }))
    return {};
  VipsImage* mem = api.image_copy_memory(cur.get());
  if (mem == nullptr) {
    *error = take_error(api);
    return {};
  }
  cur = Image(&api, mem);
  if (api.image_hasalpha(cur.get())) {
    const int colour_bands = cur->Bands - 1;
    Image alpha;
    VipsImage* a = nullptr;
    double least = 0;
    if (api.extract_band(cur.get(), &a, colour_bands, nullptr) == 0) {
      alpha = Image(&api, a);
      if (api.min(a, &least, nullptr) != 0) least = 0;
    }
    api.error_clear();
    if (least >= 255 && !step(api, &cur, error, [&](VipsImage* i, VipsImage** o) {
          return api.extract_band(i, o, 0, "n", colour_bands, nullptr);
        }))
      return {};
  }
  return cur;
}

namespace {

bool finish_save(const Api& api, int rc, void* buf, std::size_t len, std::string* out,
                 std::string* error) {
  if (rc != 0) {
    *error = take_error(api);
    if (buf != nullptr) api.free(buf);
    return false;
  }
  out->assign(static_cast<const char*>(buf), len);
  api.free(buf);
  return true;
}

}  // namespace

bool save_png(const Api& api, VipsImage* in, std::string* out, std::string* error) {
  void* buf = nullptr;
  std::size_t len = 0;
  // zlib level 3: within a few per cent of level 6 in size, two to three times faster on
  // photographic content (a 2000x1500 noisy scan: 0.33 s instead of 0.87 s).
  const int rc = api.pngsave_buffer(in, &buf, &len, "compression", 3, "strip", TRUE, nullptr);
  return finish_save(api, rc, buf, len, out, error);
}

bool save_jpeg(const Api& api, VipsImage* in, int quality, std::string* out, std::string* error) {
  void* buf = nullptr;
  std::size_t len = 0;
  const int rc = api.jpegsave_buffer(in, &buf, &len, "Q", quality, "optimize_coding", TRUE, "strip",
                                     TRUE, nullptr);
  return finish_save(api, rc, buf, len, out, error);
}

}  // namespace mcpread::readers::vips
