#include "vips_api.hpp"


#include <cstdlib>
#include "mcpread/common/lazy_library.hpp"

#include <algorithm>
#include <array>
#include <cstring>

namespace mcpread::readers::vips {
namespace {

thread_local std::string t_warnings;  // libvips' warnings on this thread since clear_warnings()

// Starts libvips once its functions are bound; false with the reason when it does not start.
bool start(SymbolBinder& bind, Api& a) {
  decltype(&::g_log_set_handler) set_log_handler = nullptr;
  if (!bind(&set_log_handler, "g_log_set_handler")) return false;
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
  // The portable bundle's ImageMagick coders were made known at start-up (prepare_environment).
  if (a.init("mcp-read") != 0) return bind.fail(bind.library() + " failed to start: " + take_error(a));
  a.cache_set_max(0);  // never keep decoded file contents between calls
  // Loaders for text formats that would otherwise turn a text file read as an image into a
  // "picture" of numbers (older libvips: vips_load.cpp turns them down).
#if MCPREAD_VIPS_AT_LEAST(8, 13)
  a.operation_block_set("VipsForeignLoadCsv", TRUE);
  a.operation_block_set("VipsForeignLoadMatrix", TRUE);
#endif
  return true;
}

bool bind_all(SymbolBinder& bind, Api& a) {
  // g_object_unref and g_free come from GLib, a dependency of libvips: dlsym on the libvips
  // handle searches its dependencies too.
  return bind(&a.init, "vips_init") && bind(&a.cache_set_max, "vips_cache_set_max") &&
#if MCPREAD_VIPS_AT_LEAST(8, 13)
         bind(&a.operation_block_set, "vips_operation_block_set") &&
#endif
         bind(&a.error_buffer_copy, "vips_error_buffer_copy") &&
         bind(&a.error_buffer, "vips_error_buffer") &&
         bind(&a.error_clear, "vips_error_clear") &&
         bind(&a.foreign_find_load_buffer, "vips_foreign_find_load_buffer") &&
         bind(&a.foreign_find_load, "vips_foreign_find_load") &&
         bind(&a.image_new_from_buffer, "vips_image_new_from_buffer") &&
         bind(&a.image_new_from_file, "vips_image_new_from_file") &&
         bind(&a.thumbnail_buffer, "vips_thumbnail_buffer") &&
         bind(&a.thumbnail, "vips_thumbnail") && bind(&a.thumbnail_image, "vips_thumbnail_image") &&
         bind(&a.image_get_n_pages, "vips_image_get_n_pages") &&
         bind(&a.image_get_page_height, "vips_image_get_page_height") &&
         bind(&a.image_get_orientation, "vips_image_get_orientation") &&
         bind(&a.image_get_string, "vips_image_get_string") &&
         bind(&a.image_get_typeof, "vips_image_get_typeof") &&
         bind(&a.image_hasalpha, "vips_image_hasalpha") &&
         bind(&a.image_copy_memory, "vips_image_copy_memory") &&
         bind(&a.colourspace, "vips_colourspace") && bind(&a.cast, "vips_cast") &&
         bind(&a.scale, "vips_scale") && bind(&a.flatten, "vips_flatten") &&
         bind(&a.extract_band, "vips_extract_band") && bind(&a.min, "vips_min") &&
         bind(&a.array_double_new, "vips_array_double_new") &&
         bind(&a.area_unref, "vips_area_unref") &&
         bind(&a.jpegsave_buffer, "vips_jpegsave_buffer") &&
         bind(&a.pngsave_buffer, "vips_pngsave_buffer") &&
         bind(&a.object_unref, "g_object_unref") && bind(&a.free, "g_free") && start(bind, a);
}

}  // namespace

const Api* api(std::string* error) {
  static const LazyLibrary<Api> lib(
      {.needs = "Reading images needs libvips 8.14 or later (Debian package libvips42)",
       .candidates = {"libvips.so.42"}},
      bind_all);
  const Api* a = lib.get(error);
  if (a == nullptr && error != nullptr) *error += ".";
  return a;
}

void clear_warnings() { t_warnings.clear(); }

std::string take_error(const Api& api) {
#if MCPREAD_VIPS_AT_LEAST(8, 11)
  // Copied and cleared in one step, under libvips' lock.
  char* copy = api.error_buffer_copy();
  std::string text = copy != nullptr ? copy : "";
  api.free(copy);
#else
  // libvips 8.10's vips_error_buffer_copy takes its own lock twice and never returns (the
  // portable bundle's, Debian bullseye): copied, then cleared, in two steps.
  const char* buffer = api.error_buffer();
  std::string text = buffer != nullptr ? buffer : "";
  api.error_clear();
#endif
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
