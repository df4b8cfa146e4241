#pragma once
// libvips, loaded on first use with dlopen so that the server does not pay for it (about a
// hundred shared libraries, tens of milliseconds) at start-up. <vips/vips.h> is included for its
// types and prototypes only; every call goes through the pointers below.
#include <vips/vips.h>

#include <string>
#include <string_view>

namespace mcpread::readers::vips {

struct Api {
  decltype(&::vips_init) init;
  decltype(&::vips_cache_set_max) cache_set_max;
  decltype(&::vips_operation_block_set) operation_block_set;
  decltype(&::vips_error_buffer_copy) error_buffer_copy;
  decltype(&::vips_error_clear) error_clear;
  decltype(&::vips_foreign_find_load_buffer) foreign_find_load_buffer;
  decltype(&::vips_image_new_from_buffer) image_new_from_buffer;
  decltype(&::vips_thumbnail_buffer) thumbnail_buffer;
  decltype(&::vips_thumbnail_image) thumbnail_image;
  decltype(&::vips_image_get_n_pages) image_get_n_pages;
  decltype(&::vips_image_get_page_height) image_get_page_height;
  decltype(&::vips_image_get_orientation) image_get_orientation;
  decltype(&::vips_image_get_string) image_get_string;
  decltype(&::vips_image_get_typeof) image_get_typeof;
  decltype(&::vips_image_hasalpha) image_hasalpha;
  decltype(&::vips_image_copy_memory) image_copy_memory;
  decltype(&::vips_colourspace) colourspace;
  decltype(&::vips_cast) cast;
  decltype(&::vips_flatten) flatten;
  decltype(&::vips_extract_band) extract_band;
  decltype(&::vips_min) min;
  decltype(&::vips_array_double_new) array_double_new;
  decltype(&::vips_area_unref) area_unref;
  decltype(&::vips_jpegsave_buffer) jpegsave_buffer;
  decltype(&::vips_pngsave_buffer) pngsave_buffer;
  decltype(&::g_object_unref) object_unref;
  decltype(&::g_free) free;
};

// libvips, initialised once (no operation cache, so file contents never outlive a call).
// nullptr when it cannot be loaded; *error then says why and what to install.
const Api* api(std::string* error);

// The text libvips has collected about the last failures (trimmed, one line), which is then
// cleared. libvips keeps one buffer per process, so concurrent failures may share their text.
std::string take_error(const Api& api);

// Owns one reference to a VipsImage.
class Image {
 public:
  Image() = default;
  Image(const Api* api, VipsImage* image) : api_(api), image_(image) {}
  Image(Image&& o) noexcept : api_(o.api_), image_(o.image_) { o.image_ = nullptr; }
  Image& operator=(Image&& o) noexcept;
  Image(const Image&) = delete;
  Image& operator=(const Image&) = delete;
  ~Image() { reset(); }
  void reset();
  [[nodiscard]] VipsImage* get() const { return image_; }
  [[nodiscard]] explicit operator bool() const { return image_ != nullptr; }
  VipsImage* operator->() const { return image_; }

 private:
  const Api* api_ = nullptr;
  VipsImage* image_ = nullptr;
};

// The few operations the image reader needs, with libvips' error text in *error on failure.
// `bytes` must outlive every image made from it (libvips reads the buffer lazily).

// Header only (nothing decoded); `options` is a loader option string such as "[page=2]".
Image load_header(const Api& api, std::string_view bytes, const std::string& options,
                  std::string* error);

// What the header says, before any pixel is decoded.
struct Header {
  std::string format;  // "PNG", "JPEG", "GIF", "WEBP", "HEIC", "AVIF", "SVG", "ICO", ...
  unsigned width = 0;  // of one page, as stored (before EXIF orientation)
  unsigned height = 0;
  int pages = 1;
  int orientation = 1;  // EXIF, 1 when absent
  bool eight_bit = true;
  bool sixteen_bit = false;
  bool cmyk = false;
  int page = -1;  // icons: the page holding the largest size (width/height are its own)
};
// Reads the header; `hint` is the MIME type the caller guessed (for naming formats only).
// Data that only ImageMagick would read is refused unless it is BMP, ICO, CUR or PSD:
// ImageMagick also reads script-like formats (MVG, MSL, TEXT) that can pull in other files.
bool inspect(const Api& api, std::string_view bytes, std::string_view hint, Header* header,
             std::string* error);
// Loads, auto-rotates by EXIF and shrinks (shrink-on-load where the format has it) to fit a
// `box`×`box` square; `upscale` lets small vector images grow. Fails on truncated data.
Image thumbnail(const Api& api, std::string_view bytes, int box, bool upscale,
                const std::string& options, std::string* error);
// An in-memory image shrunk to fit a `box`×`box` square (alpha premultiplied while resampling).
Image shrink(const Api& api, VipsImage* in, int box, std::string* error);
// 8-bit sRGB (or 8-bit grey), flattened onto white when `flatten`, held in memory. An alpha
// channel that is opaque everywhere (common in screenshots) is dropped.
Image to_srgb8_in_memory(const Api& api, Image in, bool flatten, std::string* error);
// Encoders; the encoded file goes to *out. Metadata is stripped.
bool save_png(const Api& api, VipsImage* in, std::string* out, std::string* error);
bool save_jpeg(const Api& api, VipsImage* in, int quality, std::string* out, std::string* error);

}  // namespace mcpread::readers::vips
