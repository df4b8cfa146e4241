#pragma once
// libvips, loaded on first use with dlopen so that the server does not pay for it (about a
// hundred shared libraries, tens of milliseconds) at start-up. <vips/vips.h> is included for its
// types and prototypes only; every call goes through the pointers below.
#include <vips/vips.h>

#include "mcpread/readers/access.hpp"

#include <cstddef>
#include <string>
#include <string_view>

namespace mcpread::readers::vips {

// libvips before 8.12 (Debian bullseye's 8.10, which the portable bundle is built with) has a
// boolean "fail" (on the first warning) where later ones have "fail_on" (truncated: on errors
// and truncated files); and it cannot block loaders (vips_operation_block_set, 8.13).
#define MCPREAD_VIPS_AT_LEAST(major, minor) \
  (VIPS_MAJOR_VERSION > (major) || (VIPS_MAJOR_VERSION == (major) && VIPS_MINOR_VERSION >= (minor)))
#if MCPREAD_VIPS_AT_LEAST(8, 12)
inline constexpr const char* kFailOn = "fail_on";
inline constexpr VipsFailOn kFailOnTruncated = VIPS_FAIL_ON_TRUNCATED;
inline constexpr const char* kFailOnOption = "fail_on=truncated";
#else
inline constexpr const char* kFailOn = "fail";
inline constexpr gboolean kFailOnTruncated = TRUE;
inline constexpr const char* kFailOnOption = "fail";
#endif

struct Api {
  decltype(&::vips_init) init;
  decltype(&::vips_cache_set_max) cache_set_max;
#if MCPREAD_VIPS_AT_LEAST(8, 13)
  decltype(&::vips_operation_block_set) operation_block_set;
#endif
  decltype(&::vips_error_buffer_copy) error_buffer_copy;
  decltype(&::vips_error_buffer) error_buffer;  // libvips before 8.11 (take_error)
  decltype(&::vips_error_clear) error_clear;
  decltype(&::vips_foreign_find_load_buffer) foreign_find_load_buffer;
  decltype(&::vips_foreign_find_load) foreign_find_load;
  decltype(&::vips_image_new_from_buffer) image_new_from_buffer;
  decltype(&::vips_image_new_from_file) image_new_from_file;
  decltype(&::vips_thumbnail_buffer) thumbnail_buffer;
  decltype(&::vips_thumbnail) thumbnail;
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
  decltype(&::vips_scale) scale;
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
// Some decoders only warn ("IHDR: CRC error" from libpng) and leave the buffer empty: the
// warnings this thread logged since clear_warnings() then stand in for it.
std::string take_error(const Api& api);
void clear_warnings();

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

// The bytes of an image as libvips loads them: from memory when one of its buffer loaders takes
// them; otherwise from a memory file (memfd) named /proc/self/fd/N, for the loaders libvips has
// for files only (PNM, OpenEXR, FITS, Analyze, MAT in 8.14). `bytes` and the memory file must
// outlive every image made from them (libvips reads lazily).
struct Input {
  explicit Input(std::string_view b) : bytes(b) {}
  std::string_view bytes;
  UniqueFd file;     // the memory file, when a file loader reads the image
  std::string path;  // its name; empty when loading from memory
};

// The few operations the image reader needs, with libvips' error text in *error on failure.

// Header only (nothing decoded); `options` is a loader option string such as "[page=2]".
Image load_header(const Api& api, const Input& in, const std::string& options, std::string* error);

// What the header says, before any pixel is decoded.
struct Header {
  std::string format;  // "PNG", "JPEG", "GIF", "WEBP", "HEIC", "AVIF", "SVG", "ICO", ...
  unsigned width = 0;  // of one page, as stored (before EXIF orientation)
  unsigned height = 0;
  int pages = 1;
  int orientation = 1;  // EXIF, 1 when absent
  bool eight_bit = true;
  bool sixteen_bit = false;
  bool floating = false;  // float samples: HDR, OpenEXR, PFM, FITS
  bool cmyk = false;
  int page = -1;  // icons: the page holding the largest size (width/height are its own)
};
// Finds the loader libvips has for the bytes (a buffer loader, else a file loader, which makes
// in->file) and reads the header; `hint` is the MIME type the caller guessed (for naming formats
// only). When a loader takes the bytes but cannot read their header, header->format names the
// loader's format and *error says why. There is no list of formats: whatever the installed
// libvips loads is read, except that data only ImageMagick would read is refused unless it is
// BMP, ICO, CUR or PSD: ImageMagick also reads script-like formats (MVG, MSL, TEXT) that can pull
// in other files.
bool inspect(const Api& api, Input* in, std::string_view hint, Header* header, std::string* error);
// Loads, auto-rotates by EXIF and shrinks (shrink-on-load where the format has it) to fit a
// `box`×`box` square; `upscale` lets small vector images grow. Fails on truncated data.
Image thumbnail(const Api& api, const Input& in, int box, bool upscale, const std::string& options,
                std::string* error);
// An in-memory image shrunk to fit a `box`×`box` square (alpha premultiplied while resampling).
Image shrink(const Api& api, VipsImage* in, int box, std::string* error);
// 8-bit sRGB (or 8-bit grey), flattened onto white when `flatten`, held in memory. An alpha
// channel that is opaque everywhere (common in screenshots) is dropped. Float samples (HDR,
// OpenEXR, PFM, FITS) are tone-mapped: linear scRGB through libvips' colour conversion, other
// float data stretched from its minimum to its maximum.
Image to_srgb8_in_memory(const Api& api, Image in, bool flatten, std::string* error);
// An encoded file in the buffer libvips wrote it to (kept there: copying it out would hold it
// twice at the moment memory peaks).
class Saved {
 public:
  Saved() = default;
  Saved(const Api* api, void* data, std::size_t size) : api_(api), data_(data), size_(size) {}
  Saved(Saved&& o) noexcept : api_(o.api_), data_(o.data_), size_(o.size_) { o.data_ = nullptr; }
  Saved& operator=(Saved&& o) noexcept;
  Saved(const Saved&) = delete;
  Saved& operator=(const Saved&) = delete;
  ~Saved() { reset(); }
  void reset();
  [[nodiscard]] std::string_view view() const { return {static_cast<const char*>(data_), data_ ? size_ : 0}; }
  [[nodiscard]] std::size_t size() const { return data_ ? size_ : 0; }

 private:
  const Api* api_ = nullptr;
  void* data_ = nullptr;
  std::size_t size_ = 0;
};

// Encoders; the encoded file goes to *out (whatever it held is freed first). Metadata is stripped.
bool save_png(const Api& api, VipsImage* in, Saved* out, std::string* error);
// `optimize`: optimised Huffman tables (smaller, but all coefficients are held in memory).
bool save_jpeg(const Api& api, VipsImage* in, int quality, bool optimize, Saved* out, std::string* error);

}  // namespace mcpread::readers::vips
