// libvips' loaders: which one takes the bytes, the header it reads, the first decode. Split from
// vips_api.cpp (the library and the conversions).
#include "image/image_signatures.hpp"
#include "vips_api.hpp"

#include "mcpread/common/ascii.hpp"
#include "mcpread/common/platform.hpp"
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>

namespace mcpread::readers::vips {

Image load_header(const Api& api, const Input& in, const std::string& options, std::string* error) {
  VipsImage* im =
      in.path.empty()
          ? api.image_new_from_buffer(in.bytes.data(), in.bytes.size(), options.c_str(), "access",
                                      VIPS_ACCESS_SEQUENTIAL, nullptr)
          : api.image_new_from_file((in.path + options).c_str(), "access", VIPS_ACCESS_SEQUENTIAL, nullptr);
  if (im == nullptr) *error = take_error(api);
  return Image(&api, im);
}

namespace {

std::string upper(std::string s) {
  for (char& c : s)
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  return s;
}

// A loader's base name ("png", "jp2k") as the format's usual name.
std::string display_name(const std::string& base) {
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 6> names = {
      {{"jp2k", "JPEG 2000"},
       {"rad", "Radiance HDR"},
       {"openexr", "OpenEXR"},
       {"ppm", "PNM"},
       {"pdf", "PDF"},
       {"vips", "VIPS"}}};
  for (const auto& [k, v] : names)
    if (base == k) return std::string(v);
  return upper(base);
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
    format = display_name(base);
  }
  api.error_clear();  // missing metadata fields leave messages behind
  return format.empty() ? "IMAGE" : format;
}

// Icon files hold several sizes and libvips loads the first, often 16×16: finds the largest.
void pick_largest_page(const Api& api, const Input& in, Header* h) {
  h->page = 0;
  for (int p = 1; p < std::min(h->pages, 64); ++p) {
    std::string err;
    const Image im = load_header(api, in, "[page=" + std::to_string(p) + "]", &err);
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

// "VipsForeignLoadPngBuffer" -> "PNG": a format's name from its loader's class.
std::string loader_format(std::string_view loader) {
  loader.remove_prefix(std::min(loader.size(), std::string_view("VipsForeignLoad").size()));
  for (std::string_view end : {"Buffer", "Source", "File"})
    if (loader.ends_with(end)) loader.remove_suffix(end.size());
  std::string base = common::ascii_lower(loader);
  if (base == "nsgif") base = "gif";
  return display_name(base);
}

bool is_magick(std::string_view loader) { return loader.starts_with("VipsForeignLoadMagick"); }

// CSV and matrix "images" are text files, never taken as pictures of numbers. libvips 8.13 and
// later never offer them (vips_api.cpp blocks both loaders); older ones, like the portable
// bundle's 8.10, cannot block a loader, so they are turned down here.
bool is_text_loader(std::string_view loader) {
  return loader.starts_with("VipsForeignLoadCsv") || loader.starts_with("VipsForeignLoadMatrix");
}

// The bytes in a memory file, for libvips' file loaders; false when that cannot be made.
bool make_file(Input* in) {
  platform::AnonymousFile anon = platform::anonymous_file("mcp-read-image");
  const int fd = anon.fd;
  if (fd < 0) return false;
  UniqueFd file(fd);
  if (anon.path.empty()) return false;  // Windows: no path for libvips to open it by
  for (std::size_t done = 0; done < in->bytes.size();) {
    const auto n = ::write(fd, in->bytes.data() + done, static_cast<unsigned>(std::min<std::size_t>(in->bytes.size() - done, 1u << 30)));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  in->path = std::move(anon.path);
  in->file = std::move(file);
  return true;
}

// The name of the loader libvips picks for the bytes: a buffer loader when one recognises them,
// else a file loader (libvips 8.14 reads PNM, OpenEXR, FITS, Analyze and MAT from files only), in
// which case in->file and in->path are set. Empty with libvips' reason in *error when none does.
std::string find_loader(const Api& api, Input* in, std::string* error) {
  const char* found = api.foreign_find_load_buffer(in->bytes.data(), in->bytes.size());
  if (found != nullptr && is_text_loader(found)) found = nullptr;
  const std::string buffer_loader = found != nullptr ? found : "";
  std::string why = found == nullptr ? take_error(api) : std::string();
  if (!buffer_loader.empty() && !is_magick(buffer_loader)) return buffer_loader;
  if (make_file(in)) {
    const char* by_file = api.foreign_find_load(in->path.c_str());
    if (by_file != nullptr && !is_magick(by_file) && !is_text_loader(by_file)) return by_file;
    api.error_clear();  // "... is not a known file format": the buffer loader's reason is kept
  }
  in->file = UniqueFd();
  in->path.clear();
  *error = why;
  return buffer_loader;  // ImageMagick's, or none
}

}  // namespace

bool inspect(const Api& api, Input* in, std::string_view hint, Header* h, std::string* error) {
  clear_warnings();
  const std::string_view bytes = in->bytes;
  const std::string loader = find_loader(api, in, error);
  if (loader.empty()) return false;
  const bool magick_allowed = image_signatures::magick_raster(
      std::span(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size()));
  if (is_magick(loader) && !magick_allowed) {
    *error =
        "only ImageMagick recognises it, and mcp-read lets ImageMagick read BMP, ICO, CUR, "
        "PSD, SGI, Sun raster and PCX files only";
    return false;
  }
  h->format = loader_format(loader);  // what a failure to read the header names
  const Image im = load_header(api, *in, "", error);
  if (!im) return false;
  h->format = format_of(api, im.get(), bytes, hint);
  h->width = static_cast<unsigned>(im->Xsize);
  h->height = static_cast<unsigned>(api.image_get_page_height(im.get()));
  h->pages = std::max(1, api.image_get_n_pages(im.get()));
  h->orientation = api.image_get_orientation(im.get());
  h->eight_bit = im->BandFmt == VIPS_FORMAT_UCHAR;
  h->sixteen_bit = im->BandFmt == VIPS_FORMAT_USHORT;
  h->floating = im->BandFmt == VIPS_FORMAT_FLOAT || im->BandFmt == VIPS_FORMAT_DOUBLE;
  h->cmyk = im->Type == VIPS_INTERPRETATION_CMYK;
  if ((h->format == "ICO" || h->format == "CUR") && h->pages > 1) pick_largest_page(api, *in, h);
  return true;
}

Image thumbnail(const Api& api, const Input& in, int box, bool upscale, const std::string& options,
                std::string* error) {
  clear_warnings();
  VipsImage* out = nullptr;
  const VipsSize size = upscale ? VIPS_SIZE_BOTH : VIPS_SIZE_DOWN;
  // libvips wraps the buffer without copying or writing to it.
  void* data = const_cast<char*>(in.bytes.data());
#if MCPREAD_VIPS_AT_LEAST(8, 12)
  const int rc =
      in.path.empty()
          ? api.thumbnail_buffer(data, in.bytes.size(), &out, box, "height", box, "size", size, kFailOn,
                                 kFailOnTruncated, "option_string", options.c_str(), nullptr)
          : api.thumbnail((in.path + options).c_str(), &out, box, "height", box, "size", size, kFailOn,
                          kFailOnTruncated, nullptr);  // a file's options follow its name
#else
  // libvips 8.10's thumbnail has no fail option of its own: the loader's, in `options`, only.
  const int rc = in.path.empty()
                     ? api.thumbnail_buffer(data, in.bytes.size(), &out, box, "height", box, "size", size,
                                            "option_string", options.c_str(), nullptr)
                     : api.thumbnail((in.path + options).c_str(), &out, box, "height", box, "size", size, nullptr);
#endif
  if (rc != 0) {
    *error = take_error(api);
    return {};
  }
  return Image(&api, out);
}

}  // namespace mcpread::readers::vips
