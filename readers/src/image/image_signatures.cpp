#include "image/image_signatures.hpp"

#include "byte_signatures.hpp"

namespace mcpread::readers::image_signatures {
namespace {

using sig::Bytes;
using sig::has_at;
using sig::le16;
using sig::le32;

// BMP: "BM" and a known DIB header size.
bool is_bmp(Bytes b) {
  if (b.size() < 18 || !has_at(b, 0, "BM")) return false;
  const std::uint32_t dib = le32(b, 14);
  return dib == 12 || dib == 40 || dib == 52 || dib == 56 || dib == 64 || dib == 108 || dib == 124;
}

// ICO: reserved 0, type 1, a plausible image count and first directory entry.
bool is_ico(Bytes b) {
  if (b.size() < 6 || b[0] != 0 || b[1] != 0 || b[2] != 1 || b[3] != 0) return false;
  const unsigned count = le16(b, 4);
  if (count == 0 || count > 256) return false;
  return b.size() < 22 || (b[9] == 0 && le16(b, 10) <= 1);
}

// HEIC, HEIF and AVIF images among ISO base media files (M4A audio is the audio reader's).
std::optional<Sniffed> heif(Bytes b) {
  const auto brands = sig::iso_brands(b);
  if (!brands) return std::nullopt;
  bool avif = false, heic = false, heif = false;
  brands->each([&](std::string_view br) {
    avif |= br == "avif" || br == "avis";
    heic |= br == "heic" || br == "heix" || br == "heim" || br == "heis" || br == "hevc" ||
            br == "hevx";
    heif |= br == "mif1" || br == "msf1";
  });
  if (brands->major == "avif" || brands->major == "avis") return Sniffed{"image/avif", "AVIF image"};
  if (heic) return Sniffed{"image/heic", "HEIC image"};
  if (avif) return Sniffed{"image/avif", "AVIF image"};
  if (heif) return Sniffed{"image/heif", "HEIF image"};
  return std::nullopt;
}

// True for a plain (ASCII) Netpbm header: P1, P2 or P3, then width and height (and for P2/P3 the
// maximum value) as decimal numbers, comments allowed. Such files are text to libmagic and to
// the UTF-8 check, but they are pictures: the image reader shows them, file_type="text" the numbers.
bool is_ascii_netpbm(Bytes b) {
  std::string_view s(reinterpret_cast<const char*>(b.data()), b.size());
  if (s.size() < 3 || s[0] != 'P' || s[1] < '1' || s[1] > '3') return false;
  const int numbers = s[1] == '1' ? 2 : 3;
  std::size_t i = 2;
  for (int n = 0; n < numbers; ++n) {
    bool space = false;
    while (i < s.size()) {  // blanks and comments before each number
      if (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
        ++i;
        space = true;
      } else if (s[i] == '#') {
        while (i < s.size() && s[i] != '\n') ++i;
        space = true;
      } else {
        break;
      }
    }
    std::size_t digits = 0;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9' && digits <= 6) ++i, ++digits;
    if (!space || digits == 0 || digits > 6) return false;
  }
  return i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r');
}


}  // namespace

std::optional<Sniffed> sniff(const SniffInput& in) {
  const Bytes b = in.head;
  if (has_at(b, 0, "\x89PNG\r\n\x1a\n")) return Sniffed{"image/png", "PNG image"};
  if (b.size() >= 3 && b[0] == 0xFF && b[1] == 0xD8 && b[2] == 0xFF) return Sniffed{"image/jpeg", "JPEG image"};
  if (has_at(b, 0, "GIF87a") || has_at(b, 0, "GIF89a")) return Sniffed{"image/gif", "GIF image"};
  if (has_at(b, 0, "RIFF") && has_at(b, 8, "WEBP")) return Sniffed{"image/webp", "WebP image"};
  if (is_bmp(b)) return Sniffed{"image/bmp", "BMP image"};
  if (has_at(b, 0, std::string_view("II*\0", 4)) || has_at(b, 0, std::string_view("MM\0*", 4)) ||
      has_at(b, 0, std::string_view("II+\0", 4)) || has_at(b, 0, std::string_view("MM\0+", 4)))
    return Sniffed{"image/tiff", "TIFF image"};
  if (is_ico(b)) return Sniffed{"image/x-icon", "Windows icon"};
  if ((b.size() >= 2 && b[0] == 0xFF && b[1] == 0x0A) ||
      has_at(b, 0, std::string_view("\0\0\0\x0CJXL \r\n\x87\n", 12)))
    return Sniffed{"image/jxl", "JPEG XL image"};
  if (auto h = heif(b)) return h;
  if (has_at(b, 0, "\x97JB2\r\n\x1A\n")) return Sniffed{"image/x-jbig2", "JBIG2 image"};
  if (!in.clean_text) return std::nullopt;
  if (is_svg(b)) return Sniffed{"image/svg+xml", "SVG image"};
  // P1 bitmap, P2 greymap, P3 pixmap.
  if (is_ascii_netpbm(b))
    return Sniffed{b[1] == '1' ? "image/x-portable-bitmap"
                   : b[1] == '2' ? "image/x-portable-greymap"
                                 : "image/x-portable-pixmap",
                   "Netpbm image data, ASCII"};
  return std::nullopt;
}

bool is_svg(Bytes b) {
  std::string_view s(reinterpret_cast<const char*>(b.data()), b.size());
  if (s.starts_with("\xEF\xBB\xBF")) s.remove_prefix(3);
  auto skip_space = [&] {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\n' || s.front() == '\r'))
      s.remove_prefix(1);
  };
  auto skip_past = [&](std::string_view end) {
    const auto at = s.find(end);
    if (at == std::string_view::npos) return false;
    s.remove_prefix(at + end.size());
    return true;
  };
  for (;;) {
    skip_space();
    if (s.starts_with("<?")) {
      if (!skip_past("?>")) return false;
    } else if (s.starts_with("<!--")) {
      if (!skip_past("-->")) return false;
    } else if (s.starts_with("<!DOCTYPE") || s.starts_with("<!doctype")) {
      int depth = 0;
      std::size_t i = 0;
      for (; i < s.size(); ++i) {
        if (s[i] == '[') ++depth;
        else if (s[i] == ']') --depth;
        else if (s[i] == '>' && depth <= 0) break;
      }
      if (i == s.size()) return false;
      s.remove_prefix(i + 1);
    } else {
      break;
    }
  }
  if (s.starts_with("<svg:svg")) return true;
  if (!s.starts_with("<svg") || s.size() < 5) return false;
  const char next = s[4];
  return next == ' ' || next == '\t' || next == '\n' || next == '\r' || next == '>' || next == '/';
}


std::string_view magick_raster_format(Bytes b) {
  if (has_at(b, 0, "BM")) return "BMP";
  if (has_at(b, 0, "8BPS")) return "PSD";
  if (has_at(b, 0, std::string_view("\0\0\1\0", 4))) return "ICO";
  if (has_at(b, 0, std::string_view("\0\0\2\0", 4))) return "CUR";
  if (has_at(b, 0, "\x01\xDA") && b.size() > 2 && b[2] <= 1) return "SGI";  // storage 0/1
  if (has_at(b, 0, "\x59\xA6\x6A\x95")) return "Sun raster";
  // PCX: manufacturer 10, version 0-5, encoding 0/1, 1-8 bits per plane.
  if (b.size() > 3 && b[0] == 0x0A && b[1] <= 5 && b[2] <= 1 && (b[3] == 1 || b[3] == 2 || b[3] == 4 || b[3] == 8))
    return "PCX";
  return {};
}

bool magick_raster(Bytes b) { return !magick_raster_format(b).empty(); }

}  // namespace mcpread::readers::image_signatures
