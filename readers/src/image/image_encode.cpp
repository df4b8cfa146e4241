#include "image/image_encode.hpp"


#include "file_io.hpp"
#include "human_size.hpp"
#include "image_checks.hpp"
#include "image_header.hpp"
#include "image_signatures.hpp"
#include "jbig2_decode.hpp"
#include "mcpread/readers/base64.hpp"
#include "mcpread/readers/utf8.hpp"
#include "vips_api.hpp"

#include "mcpread/common/platform.hpp"
#include "mcpread/common/spare_buffers.hpp"


#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <optional>

#ifdef __GLIBC__
#include <malloc.h>
#endif

namespace mcpread::readers::image_encode {

namespace {

// Images whose files are at least this large are decoded from the file, not from their bytes in
// memory (see encode): smaller ones cost little to keep, and a memory buffer spares an open.
constexpr std::size_t kDecodeFromFileBytes = 4u << 20;

// The byte budget in words: "5 MB", "48.8 KB".
std::string budget_text(std::uint64_t bytes) {
  std::string s = human_size(bytes);
  if (const auto p = s.find(".0 "); p != std::string::npos) s.erase(p, 2);
  return s;
}

// A JBIG2 file jbig2dec gave no page of, in the image reader's words.
Failure jbig2_failure(const jbig2::Failure& f, const std::string& subject, const ImageLimits& limits) {
  switch (f.kind) {
    case jbig2::Failure::missing_library:
      return {Fail::unsupported, subject + " is a JBIG2 image, and " + f.message + "."};
    case jbig2::Failure::too_large:
      return {Fail::too_many_pixels, subject + " is a JBIG2 image that was not decoded: " + f.message +
                                         ", more than the limit of " +
                                         decimal(static_cast<double>(limits.max_pixels) / 1e6) +
                                         " megapixels (a guard against decompression bombs)."};
    case jbig2::Failure::corrupt:
      break;
  }
  return {Fail::corrupt, subject + " is a JBIG2 image that cannot be decoded; it is probably truncated or corrupt (" +
                             f.message + ")."};
}

}  // namespace

std::string dims(unsigned w, unsigned h) {
  return std::to_string(w) + "\u00D7" + std::to_string(h);
}

// Up to three decimals, without trailing zeros: 2.016, 3, 0.125.
std::string decimal(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", v);
  std::string s = buf;
  while (s.ends_with('0')) s.pop_back();
  if (s.ends_with('.')) s.pop_back();
  return s;
}

std::string capitalized(std::string s) {
  if (!s.empty() && s[0] >= 'a' && s[0] <= 'z') s[0] = static_cast<char>(s[0] - 'a' + 'A');
  return s;
}

namespace {

std::string mime_of(std::string_view format) {
  if (format == "PNG") return "image/png";
  if (format == "JPEG") return "image/jpeg";
  if (format == "GIF") return "image/gif";
  if (format == "WEBP") return "image/webp";
  return {};
}

std::string article(const std::string& format) {
  return (format.starts_with('A') || format.starts_with('I') || format.starts_with('H') ? "an "
                                                                                        : "a ") +
         format;
}


Failure stopped() { return {Fail::cancelled, "The read was cancelled."}; }

}  // namespace

Result encode(std::string_view bytes, std::string_view hint, const ImageLimits& limits,
              const CancelToken& cancel, const std::string& subject, Bytes* owned_source,
              int source_fd) {
  if (cancel.cancelled()) return stopped();
  if (auto plain = image_header::pass_through(bytes, limits, owned_source)) return std::move(*plain);
  std::string err;
  const vips::Api* api = vips::api(&err);
  if (api == nullptr) return Failure{Fail::libvips, err};
  if (bytes.empty())
    return Failure{Fail::not_image, subject + " is empty (0 bytes), not an image."};
  // libvips reads no JBIG2: jbig2dec decodes the first page into a PBM, which goes on as any
  // image does. The file's bytes are let go once the page is out.
  std::string jbig2_pbm;
  unsigned jbig2_pages = 0;
  if (jbig2::is_jbig2(bytes)) {
    auto page = jbig2::first_page(bytes, limits.max_pixels);
    if (const auto* f = std::get_if<jbig2::Failure>(&page)) return jbig2_failure(*f, subject, limits);
    jbig2_pbm = std::move(std::get<jbig2::Page>(page).pbm);
    jbig2_pages = std::get<jbig2::Page>(page).pages;
    bytes = jbig2_pbm;
    if (owned_source != nullptr) Bytes().swap(*owned_source);
    owned_source = nullptr;
    source_fd = -1;
  }
  const std::size_t source_size = bytes.size();
  vips::Input input(bytes);  // outlives every image read lazily from it
  vips::Header h;
  if (!vips::inspect(*api, &input, hint, &h, &err)) {
    if (cancel.cancelled()) return stopped();
    if (!h.format.empty())  // a loader took it and could not read its header
      return Failure{Fail::corrupt, subject + " is " + article(h.format) +
                                        " image that cannot be decoded; it is probably truncated or "
                                        "corrupt (" + err + ")."};
    // A libvips without ImageMagick's loader (the Windows bundle's) recognises none of these: the
    // file is named for what it is rather than called perhaps corrupt.
    const auto head = std::span(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size());
    if (const std::string_view format = image_signatures::magick_raster_format(head); !format.empty())
      return Failure{Fail::unsupported, subject + " looks like " + article(std::string(format)) + " image, which this " +
                                          "build of libvips cannot decode (it has no ImageMagick loader, which reads " +
                                          std::string(format) + " files); convert it to PNG to read it."};
    return Failure{Fail::not_image, subject +
                                        " is not an image libvips can decode (it may be "
                                        "truncated or corrupt, or not an image at all): " +
                                        err + "."};
  }
  if (jbig2_pages > 0) {
    h.format = "JBIG2";
    h.pages = static_cast<int>(jbig2_pages);
  }
  const bool svg = h.format == "SVG";
  const int ico_page = h.page;
  // thumbnail_buffer does not pass its own fail_on to the loader (libvips 8.14): say it here.
  const std::string options =
      "[" + std::string(vips::kFailOnOption) + (ico_page >= 0 ? ",page=" + std::to_string(ico_page) : "") + "]";

  const bool swap = h.orientation >= 5 && h.orientation <= 8;
  const unsigned ow = swap ? h.height : h.width, oh = swap ? h.width : h.height;
  const unsigned long_edge = std::max({ow, oh, 1u});
  // SVGs are drawn at a size that fits max_edge; tiny ones larger, as models read them poorly.
  unsigned box = std::min(long_edge, limits.max_edge);
  if (svg && long_edge < 200) box = std::min(800u, limits.max_edge);
  // The long edge at which the sent image also fits the host's tile count, if it has one.
  const auto tiles_at = [&](unsigned edge) {
    const double s = static_cast<double>(edge) / long_edge;
    return tiles_of(static_cast<unsigned>(std::lround(ow * s)), static_cast<unsigned>(std::lround(oh * s)));
  };
  if (limits.max_tiles > 0)
    while (box > 16 && tiles_at(box) > limits.max_tiles) box = box * 49 / 50;
  const double drawn = static_cast<double>(box) / long_edge;
  // The guard counts what will be decoded: JPEG shrinks on load by up to 8 per side, so a
  // 108-megapixel phone photo decodes to under 2 megapixels on its way to max_edge.
  std::uint64_t jpeg_shrink = 1;
  while (h.format == "JPEG" && jpeg_shrink < 8 && long_edge / (jpeg_shrink * 2) >= box) jpeg_shrink *= 2;
  const std::uint64_t pixels =
      svg ? static_cast<std::uint64_t>(std::ceil(ow * drawn) * std::ceil(oh * drawn))
          : std::uint64_t{h.width} * h.height;
  if (pixels / (jpeg_shrink * jpeg_shrink) > limits.max_pixels) {
    char mp[64];
    std::snprintf(mp, sizeof mp, "%.1f megapixels", static_cast<double>(pixels) / 1e6);
    return Failure{Fail::too_many_pixels,
                   subject + " is " + article(h.format) + " image of " + dims(h.width, h.height) +
                       " px (" + mp + "), more than the limit of " +
                       decimal(static_cast<double>(limits.max_pixels) / 1e6) +
                       " megapixels, so it was not decoded (a guard against decompression "
                       "bombs)."};
  }

  EncodedImage out;
  out.original_width = ow;
  out.original_height = oh;
  out.original_format = h.format;
  const std::string pass_mime = mime_of(h.format);
  const bool animated = h.pages > 1 && (h.format == "GIF" || h.format == "WEBP");
  const bool complete = !pass_mime.empty() && image_checks::looks_complete(h.format, bytes);
  const image_checks::PngChunkProblem png_problem =
      h.format == "PNG" ? image_checks::png_chunk_problem(bytes) : image_checks::PngChunkProblem{};
  const std::string& chunk_problem = png_problem.text;
  const bool intact = chunk_problem.empty();
  if (png_problem.critical)
    return Failure{Fail::corrupt, subject + " is a PNG image (" + dims(ow, oh) +
                                      " px) that cannot be decoded; it is probably truncated or corrupt (" +
                                      chunk_problem + ")."};
  const bool fits_bytes = base64_size(bytes.size()) <= limits.max_base64_bytes;
  const bool fits_tiles = limits.max_tiles == 0 || tiles_of(ow, oh) <= limits.max_tiles;
  if (!pass_mime.empty() && long_edge <= limits.max_edge && fits_tiles && fits_bytes && h.orientation <= 1 &&
      h.eight_bit && !h.cmyk && complete && intact) {
    if (cancel.cancelled()) return stopped();
    out.mime = pass_mime;
    out.data = owned_source != nullptr ? std::move(*owned_source) : bytes_of(bytes);
    out.width = ow;
    out.height = oh;
    out.passed_through = true;
    if (animated) out.note = "animated, " + std::to_string(h.pages) + " frames";
    return out;
  }

  // Decoding needs working memory of its own. The large buffers kept for the next pass-through
  // go first (common/spare_buffers.hpp), and a large file is decoded from the file itself: its
  // bytes would otherwise be held through the decode (an 18 MB PNG's, beside its pixels). The
  // file is named through the descriptor (/proc/self/fd), never by its path, which may name
  // another file by now; a loader that reads only files has a memory file already (vips_load).
  common::spare::release_all();
  if (source_fd >= 0 && owned_source != nullptr && input.path.empty() && bytes.size() >= kDecodeFromFileBytes) {
    input.path = platform::descriptor_path(source_fd);
    if (!input.path.empty()) {
      Bytes().swap(*owned_source);  // `clear()` keeps the buffer
      bytes = {};
      input.bytes = {};
    }
  }

  const std::string budget = budget_text(limits.max_base64_bytes);
  const bool png_first = h.format == "PNG" || h.format == "BMP" || h.format == "GIF" ||
                         h.format == "ICO" || h.format == "CUR" || h.format == "PNM" || h.format == "JBIG2" || svg;
  vips::Saved encoded;
  std::string sent_format;
  int quality = 0, steps = 0;
  bool png_too_big = false, flattened = false, optimize_jpeg = false;
  unsigned sent_w = 0, sent_h = 0;
  vips::Image first;  // the image at the first size tried; smaller sizes are made from it
  for (;; ++steps) {
    const auto target = static_cast<int>(std::lround(box * std::pow(0.75, steps)));
    // An image smaller than 16 px to begin with is sent at its size; only shrinking stops there.
    if (steps > 0 && target < 16)
      return Failure{Fail::encode, subject + " cannot be made to fit in " + budget +
                                       " of base64, even at 16 pixels."};
    vips::Image img;
    if (steps == 0) {
      vips::Image thumb = vips::thumbnail(*api, input, target, svg, options, &err);
      if (thumb) {
        flattened = svg && api->image_hasalpha(thumb.get());
        if (!cancel.cancelled()) img = vips::to_srgb8_in_memory(*api, std::move(thumb), svg, &err);
      }
      if (cancel.cancelled()) return stopped();
      if (!img)
        return Failure{Fail::corrupt, subject + " is " + article(h.format) + " image (" +
                                          dims(ow, oh) +
                                          " px) that cannot be decoded; it is "
                                          "probably truncated or corrupt (" +
                                          err + (chunk_problem.empty() ? "" : "; " + chunk_problem) + ")."};
      // The pixels are in memory: nothing reads the file's bytes any more (smaller sizes are
      // made from `first`), and they would otherwise be held through encoding and base64.
      input.file = UniqueFd();
      if (owned_source != nullptr) Bytes().swap(*owned_source);  // `clear()` keeps the buffer
      bytes = {};
    } else {
      vips::Image smaller = vips::shrink(*api, first.get(), target, &err);
      if (smaller) img = vips::to_srgb8_in_memory(*api, std::move(smaller), false, &err);
      if (!img) return Failure{Fail::encode, subject + " could not be resized: " + err + "."};
    }
    if (cancel.cancelled()) return stopped();
    sent_w = static_cast<unsigned>(img->Xsize);
    sent_h = static_cast<unsigned>(img->Ysize);
    const bool alpha = api->image_hasalpha(img.get()) != 0;
    const auto fits = [&] { return base64_size(encoded.size()) <= limits.max_base64_bytes; };
    // PNG is worth a try for transparency, and for opaque sources whose kind suits it, unless a
    // PNG of these pixels already proved too big: an earlier, larger attempt, or the source
    // itself, a PNG over the budget at this very size.
    if (h.format == "PNG" && sent_w == ow && sent_h == oh &&
        base64_size(source_size) > limits.max_base64_bytes)
      png_too_big = true;
    // A PNG source's bytes per pixel predict a PNG of fewer pixels of the same picture (noise
    // stays noise): when even half that estimate is over the budget, encoding one is wasted work.
    if (h.format == "PNG" && !png_too_big && !alpha) {
      const double per_pixel = static_cast<double>(source_size) / (static_cast<double>(ow) * oh);
      const auto estimate = static_cast<std::size_t>(per_pixel * sent_w * sent_h / 2);
      if (base64_size(estimate) > limits.max_base64_bytes) png_too_big = true;
    }
    if (alpha || (png_first && !png_too_big)) {
      if (!vips::save_png(*api, img.get(), &encoded, &err))
        return Failure{Fail::encode, subject + " could not be encoded as PNG: " + err + "."};
      if (fits()) {
        sent_format = "PNG";
        break;
      }
      png_too_big = png_too_big || !alpha;
      if (cancel.cancelled()) return stopped();
    }
    if (!alpha) {  // transparency needs PNG: only smaller dimensions help it
      for (const int q : {85, 75, 65, 50}) {
        // Optimised Huffman tables make the file 5-8 % smaller but need every coefficient of the
        // image in memory at once (6-10 MB at 2000 px, the read's peak): they are used once a
        // plain encoding has missed the budget, before any quality is given up.
        for (const bool optimize : {false, true}) {
          if (!optimize && optimize_jpeg) continue;
          if (!vips::save_jpeg(*api, img.get(), q, optimize, &encoded, &err))
            return Failure{Fail::encode, subject + " could not be encoded as JPEG: " + err + "."};
          if (cancel.cancelled()) return stopped();
          if (fits()) break;
          optimize_jpeg = true;
        }
        quality = q;
        if (fits()) break;
      }
      if (fits()) {
        sent_format = "JPEG";
        break;
      }
    }
    if (steps == 0) first = std::move(img);  // fewer pixels next, 0.75× per side per step
  }

  out.mime = sent_format == "PNG" ? "image/png" : "image/jpeg";
  out.data = bytes_of(encoded.view());
  encoded.reset();
  out.width = sent_w;
  out.height = sent_h;
  const unsigned sent_long = std::max({sent_w, sent_h, 1u});
  out.scale = static_cast<double>(long_edge) / sent_long;

  std::vector<std::string> notes;
  if (svg) {
    notes.emplace_back(std::string("rendered from SVG") + (flattened ? " on white" : ""));
    if (sent_long > long_edge) notes.push_back("enlarged from " + dims(ow, oh) + " to be legible");
  } else if (h.format != sent_format) {
    notes.push_back("converted from " + h.format);
  }
  if (sent_long < long_edge) notes.push_back("downscaled from " + dims(ow, oh));
  if (h.orientation > 1) notes.emplace_back("EXIF orientation applied");
  if (animated)
    notes.push_back("first frame of " + std::to_string(h.pages));
  else if (ico_page >= 0)
    notes.push_back("largest of " + std::to_string(h.pages) + " icon sizes");
  else if (h.pages > 1)
    notes.push_back("first page of " + std::to_string(h.pages));
  if (h.cmyk) notes.emplace_back("CMYK converted to sRGB");
  if (h.sixteen_bit) notes.emplace_back("16-bit samples reduced to 8-bit");
  if (h.floating) notes.emplace_back("floating-point samples mapped to 8-bit sRGB");
  std::vector<std::string> fitting;  // what was given up to fit the byte budget
  if (png_too_big && sent_format == "JPEG")
    fitting.push_back(quality < 85 ? "JPEG quality " + std::to_string(quality) + " instead of PNG"
                                   : "JPEG instead of PNG");
  else if (sent_format == "JPEG" && quality < 85)
    fitting.push_back("JPEG quality " + std::to_string(quality));
  if (steps > 0) fitting.emplace_back("fewer pixels");
  if (!fitting.empty())
    notes.push_back(fitting.size() == 2 ? fitting[0] + " and " + fitting[1] + " to fit " + budget
                                        : fitting[0] + " to fit " + budget);
  if (notes.empty()) {
    if (!fits_bytes)
      notes.push_back("re-encoded to fit " + budget);
    else if (!pass_mime.empty() && !complete)
      notes.push_back("re-encoded: the file does not end like a complete " + h.format + " file");
    else if (!intact)
      notes.push_back("re-encoded: " + chunk_problem);
    else
      notes.emplace_back("re-encoded");
  }
  for (std::size_t i = 0; i < notes.size(); ++i) out.note += (i ? "; " : "") + notes[i];
  return out;
}

// What a decode frees stays resident in glibc's arenas (libvips decodes on several threads, each
// with an arena of its own) unless handed back, so a process that had read a few large images
// held the sum of their peaks. Pass-through allocates little and is not trimmed. Capping the
// arenas (M_ARENA_MAX 2) lowered the peak further but cost text reads a third of their calls/s
// through allocator contention between the transport and worker threads, so it is not done.
void release_decode_memory(const Result& r) {
#ifdef __GLIBC__
  const auto* img = std::get_if<EncodedImage>(&r);
  if (img == nullptr || !img->passed_through) malloc_trim(0);
#else
  (void)r;
#endif
}

}  // namespace mcpread::readers::image_encode
