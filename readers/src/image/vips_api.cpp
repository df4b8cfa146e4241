#include "vips_api.hpp"
#include "dl_symbol.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <mutex>

namespace mcpread::readers::vips {
namespace {

thread_local std::string t_warnings;  // libvips' warnings on this thread since clear_warnings()

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
      bind(lib, "vips_foreign_find_load", &a.foreign_find_load, &e) &&
      bind(lib, "vips_image_new_from_buffer", &a.image_new_from_buffer, &e) &&
      bind(lib, "vips_image_new_from_file", &a.image_new_from_file, &e) &&
      bind(lib, "vips_thumbnail_buffer", &a.thumbnail_buffer, &e) &&
      bind(lib, "vips_thumbnail", &a.thumbnail, &e) &&
      bind(lib, "vips_thumbnail_image", &a.thumbnail_image, &e) &&
      bind(lib, "vips_image_get_n_pages", &a.image_get_n_pages, &e) &&
      bind(lib, "vips_image_get_page_height", &a.image_get_page_height, &e) &&
      bind(lib, "vips_image_get_orientation", &a.image_get_orientation, &e) &&
      bind(lib, "vips_image_get_string", &a.image_get_string, &e) &&
      bind(lib, "vips_image_get_typeof", &a.image_get_typeof, &e) &&
      bind(lib, "vips_image_hasalpha", &a.image_hasalpha, &e) &&
      bind(lib, "vips_image_copy_memory", &a.image_copy_memory, &e) &&
      bind(lib, "vips_colourspace", &a.colourspace, &e) && bind(lib, "vips_cast", &a.cast, &e) &&
      bind(lib, "vips_scale", &a.scale, &e) &&
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
  // stderr, which clients show as the server's log. They are kept per thread instead: some
  // decoders say why they failed in a warning only (take_error).
  set_log_handler(
      "VIPS",
      static_cast<GLogLevelFlags>(G_LOG_LEVEL_WARNING | G_LOG_LEVEL_MESSAGE | G_LOG_LEVEL_INFO |
                                  G_LOG_LEVEL_DEBUG),
      [](const gchar*, GLogLevelFlags level, const gchar* message, gpointer) {
        if ((level & G_LOG_LEVEL_WARNING) == 0 || message == nullptr || t_warnings.size() > 500 ||
            t_warnings.find(message) != std::string::npos)  // a header read twice warns twice
          return;
        t_warnings += (t_warnings.empty() ? "" : "; ") + std::string(message);
      },
      nullptr);
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

void clear_warnings() { t_warnings.clear(); }

std::string take_error(const Api& api) {
  // Copied and cleared in one step, under libvips' lock.
  char* copy = api.error_buffer_copy();
  std::string text = copy != nullptr ? copy : "";
  api.free(copy);
  // Only when the buffer is empty: a decode's warnings come from whichever thread of libvips'
  // pool ran it, so they would appear in some answers and not in others.
  if (text.empty()) text = t_warnings;
  t_warnings.clear();
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
  // Float samples left after the colour conversion (PFM, FITS: grey or RGB of any range) are
  // stretched to 0-255; a cast would clip them to black and one grey level.
  const bool floating = cur->BandFmt == VIPS_FORMAT_FLOAT || cur->BandFmt == VIPS_FORMAT_DOUBLE ||
                        cur->BandFmt == VIPS_FORMAT_COMPLEX || cur->BandFmt == VIPS_FORMAT_DPCOMPLEX;
  if (floating && !step(api, &cur, error, [&](VipsImage* i, VipsImage** o) { return api.scale(i, o, nullptr); }))
    return {};
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

bool finish_save(const Api& api, int rc, void* buf, std::size_t len, Saved* out,
                 std::string* error) {
  if (rc != 0) {
    *error = take_error(api);
    if (buf != nullptr) api.free(buf);
    return false;
  }
  *out = Saved(&api, buf, len);
  return true;
}

}  // namespace

Saved& Saved::operator=(Saved&& o) noexcept {
  if (this != &o) {
    reset();
    api_ = o.api_;
    data_ = o.data_;
    size_ = o.size_;
    o.data_ = nullptr;
  }
  return *this;
}

void Saved::reset() {
  if (data_ != nullptr) api_->free(data_);
  data_ = nullptr;
}

bool save_png(const Api& api, VipsImage* in, Saved* out, std::string* error) {
  out->reset();
  void* buf = nullptr;
  std::size_t len = 0;
  // zlib level 3: within a few per cent of level 6 in size, two to three times faster on
  // photographic content (a 2000x1500 noisy scan: 0.33 s instead of 0.87 s).
  const int rc = api.pngsave_buffer(in, &buf, &len, "compression", 3, "strip", TRUE, nullptr);
  return finish_save(api, rc, buf, len, out, error);
}

bool save_jpeg(const Api& api, VipsImage* in, int quality, bool optimize, Saved* out, std::string* error) {
  out->reset();
  void* buf = nullptr;
  std::size_t len = 0;
  const int rc = api.jpegsave_buffer(in, &buf, &len, "Q", quality, "optimize_coding", optimize ? TRUE : FALSE, "strip",
                                     TRUE, nullptr);
  return finish_save(api, rc, buf, len, out, error);
}

}  // namespace mcpread::readers::vips
