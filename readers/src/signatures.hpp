#pragma once
// Magic-byte signatures of the formats the `read` tool handles itself (images, PDF, audio) and
// the SVG sniffer. Internal to classify.cpp (header-only so that it needs no build-file entry).
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "mcpread/readers/classify.hpp"

namespace mcpread::readers::detail {

struct Signature {
  FileKind kind;
  std::string_view mime;
  std::string_view description;
};

using Bytes = std::span<const unsigned char>;

inline bool has_at(Bytes b, std::size_t at, std::string_view sig) {
  if (b.size() < at + sig.size()) return false;
  for (std::size_t i = 0; i < sig.size(); ++i)
    if (b[at + i] != static_cast<unsigned char>(sig[i])) return false;
  return true;
}

inline std::uint32_t be32(Bytes b, std::size_t at) {
  return std::uint32_t{b[at]} << 24 | std::uint32_t{b[at + 1]} << 16 |
         std::uint32_t{b[at + 2]} << 8 | std::uint32_t{b[at + 3]};
}
inline std::uint32_t le32(Bytes b, std::size_t at) {
  return std::uint32_t{b[at + 3]} << 24 | std::uint32_t{b[at + 2]} << 16 |
         std::uint32_t{b[at + 1]} << 8 | std::uint32_t{b[at]};
}
inline unsigned le16(Bytes b, std::size_t at) { return unsigned{b[at]} | unsigned{b[at + 1]} << 8; }

// BMP: "BM" and a known DIB header size.
inline bool is_bmp(Bytes b) {
  if (b.size() < 18 || !has_at(b, 0, "BM")) return false;
  const std::uint32_t dib = le32(b, 14);
  return dib == 12 || dib == 40 || dib == 52 || dib == 56 || dib == 64 || dib == 108 || dib == 124;
}

// ICO: reserved 0, type 1, a plausible image count and first directory entry.
inline bool is_ico(Bytes b) {
  if (b.size() < 6 || b[0] != 0 || b[1] != 0 || b[2] != 1 || b[3] != 0) return false;
  const unsigned count = le16(b, 4);
  if (count == 0 || count > 256) return false;
  return b.size() < 22 || (b[9] == 0 && le16(b, 10) <= 1);
}

// ISO base media ("ftyp" box): HEIC/HEIF/AVIF images and M4A/M4B audio.
inline std::optional<Signature> iso_bmff(Bytes b, std::string_view ext) {
  if (b.size() < 16 || !has_at(b, 4, "ftyp")) return std::nullopt;
  const std::size_t box = std::min<std::size_t>({be32(b, 0), b.size(), 256});
  auto brand = [&](std::size_t at) { return std::string_view(reinterpret_cast<const char*>(&b[at]), 4); };
  const std::string_view major = brand(8);
  bool avif = false, heic = false, heif = false;
  auto note = [&](std::string_view br) {
    avif |= br == "avif" || br == "avis";
    heic |= br == "heic" || br == "heix" || br == "heim" || br == "heis" || br == "hevc" ||
            br == "hevx";
    heif |= br == "mif1" || br == "msf1";
  };
  note(major);
  for (std::size_t at = 16; at + 4 <= box; at += 4) note(brand(at));
  if (major == "avif" || major == "avis") return Signature{FileKind::image, "image/avif", "AVIF image"};
  if (heic) return Signature{FileKind::image, "image/heic", "HEIC image"};
  if (avif) return Signature{FileKind::image, "image/avif", "AVIF image"};
  if (heif) return Signature{FileKind::image, "image/heif", "HEIF image"};
  if (major == "M4A " || major == "M4B " || major == "M4P " ||
      ((major == "mp42" || major == "isom" || major == "mp41") && (ext == "m4a" || ext == "m4b")))
    return Signature{FileKind::audio, "audio/mp4", "MPEG-4 audio (M4A)"};
  return std::nullopt;
}

// MPEG audio layer III frame header at `at`; returns the frame length, 0 when not a header.
inline std::size_t mp3_frame(Bytes b, std::size_t at) {
  static constexpr std::array<unsigned, 15> kV1{0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320};
  static constexpr std::array<unsigned, 15> kV2{0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160};
  static constexpr std::array<unsigned, 3> kRate{44100, 48000, 32000};
  if (b.size() < at + 4 || b[at] != 0xFF || (b[at + 1] & 0xE0) != 0xE0) return 0;
  const unsigned version = (b[at + 1] >> 3) & 3;  // 3: MPEG-1, 2: MPEG-2, 0: MPEG-2.5
  const unsigned layer = (b[at + 1] >> 1) & 3;    // 1: layer III
  const unsigned bitrate = b[at + 2] >> 4;
  const unsigned rate = (b[at + 2] >> 2) & 3;
  if (version == 1 || layer != 1 || bitrate == 0 || bitrate == 15 || rate == 3) return 0;
  const unsigned padding = (b[at + 2] >> 1) & 1;
  const unsigned hz = kRate[rate] >> (version == 3 ? 0 : version == 2 ? 1 : 2);
  if (version == 3) return 144000 * kV1[bitrate] / hz + padding;
  return 72000 * kV2[bitrate] / hz + padding;
}

inline bool is_mp3(Bytes b) {
  if (b.size() >= 10 && has_at(b, 0, "ID3") && b[3] >= 2 && b[3] <= 4 && b[4] != 0xFF &&
      b[6] < 0x80 && b[7] < 0x80 && b[8] < 0x80 && b[9] < 0x80)
    return true;
  const std::size_t len = mp3_frame(b, 0);
  if (len == 0) return false;
  // The next frame must follow when the sample holds it.
  return b.size() < len + 4 || mp3_frame(b, len) != 0;
}

inline bool is_adts(Bytes b) {
  return b.size() >= 7 && b[0] == 0xFF && (b[1] & 0xF6) == 0xF0 && ((b[2] >> 2) & 0xF) < 13;
}

inline std::optional<std::size_t> find_sig(Bytes b, std::string_view sig, std::size_t within) {
  for (std::size_t i = 0; i < within && i + sig.size() <= b.size(); ++i)
    if (has_at(b, i, sig)) return i;
  return std::nullopt;
}

// Office documents are zip packages. ODF names its type in a first, uncompressed `mimetype`
// entry; a Word document holds word/document.xml (usually among the first entries; named .docx, a
// package with [Content_Types].xml is enough). Other zips stay binary. An OLE2 compound file named
// .docx or .odt is an encrypted (or legacy) Office file: its reader says which.
inline std::optional<Signature> office_document(Bytes b, std::string_view ext) {
  static constexpr std::string_view kDocxMime = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
  static constexpr std::string_view kOdtMime = "application/vnd.oasis.opendocument.text";
  static constexpr std::string_view kXlsxMime = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
  static constexpr std::string_view kOdsMime = "application/vnd.oasis.opendocument.spreadsheet";
  const bool docx_name = ext == "docx" || ext == "docm";
  const bool xlsx_name = ext == "xlsx" || ext == "xlsm";
  if (has_at(b, 0, "\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1") && (docx_name || ext == "odt"))
    return Signature{FileKind{docx_name ? "docx" : "odt"}, docx_name ? kDocxMime : kOdtMime,
                     "OLE2 compound file (an encrypted or legacy Office document)"};
  if (has_at(b, 0, "\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1") && (xlsx_name || ext == "ods"))
    return Signature{FileKind{xlsx_name ? "xlsx" : "ods"}, xlsx_name ? kXlsxMime : kOdsMime,
                     "OLE2 compound file (an encrypted or legacy Office document)"};
  if (!has_at(b, 0, "PK\x03\x04")) return std::nullopt;
  bool content_types = false;
  for (std::size_t at = 0; at + 30 <= b.size() && has_at(b, at, "PK\x03\x04");) {
    const std::size_t name_len = le16(b, at + 26), extra = le16(b, at + 28);
    if (at + 30 + name_len > b.size()) break;
    const std::string_view name(reinterpret_cast<const char*>(&b[at + 30]), name_len);
    const std::size_t data = at + 30 + name_len + extra;
    if (at == 0 && name == "mimetype" && has_at(b, data, kOdtMime))
      return Signature{FileKind{"odt"}, kOdtMime, "OpenDocument text"};
    if (at == 0 && name == "mimetype" && has_at(b, data, kOdsMime))
      return Signature{FileKind{"ods"}, kOdsMime, "OpenDocument spreadsheet"};
    if (name == "xl/workbook.xml") return Signature{FileKind{"xlsx"}, kXlsxMime, "Microsoft Excel workbook (XLSX)"};
    if (name == "word/document.xml") return Signature{FileKind{"docx"}, kDocxMime, "Microsoft Word document (DOCX)"};
    content_types |= name == "[Content_Types].xml";
    if ((le16(b, at + 6) & 8) != 0) {  // sizes in a data descriptor after the data: find the next header
      const auto next = find_sig(b.subspan(std::min(data, b.size())), "PK\x03\x04", b.size());
      if (!next) break;
      at = data + *next;
    } else {
      at = data + le32(b, at + 18);
    }
  }
  if (content_types && docx_name) return Signature{FileKind{"docx"}, kDocxMime, "Microsoft Word document (DOCX)"};
  if (content_types && xlsx_name) return Signature{FileKind{"xlsx"}, kXlsxMime, "Microsoft Excel workbook (XLSX)"};
  return std::nullopt;
}

// Images, audio and PDFs recognised by their first bytes. `binaryish` says the sample is not
// clean text, which a PDF header found after offset 0 needs (a text may quote "%PDF-").
inline std::optional<Signature> sniff(Bytes b, std::string_view ext, bool binaryish) {
  using K = FileKind;
  if (auto office = office_document(b, ext)) return office;
  if (has_at(b, 0, "\x89PNG\r\n\x1a\n")) return Signature{K::image, "image/png", "PNG image"};
  if (b.size() >= 3 && b[0] == 0xFF && b[1] == 0xD8 && b[2] == 0xFF)
    return Signature{K::image, "image/jpeg", "JPEG image"};
  if (has_at(b, 0, "GIF87a") || has_at(b, 0, "GIF89a")) return Signature{K::image, "image/gif", "GIF image"};
  if (has_at(b, 0, "RIFF") && has_at(b, 8, "WEBP")) return Signature{K::image, "image/webp", "WebP image"};
  if (is_bmp(b)) return Signature{K::image, "image/bmp", "BMP image"};
  if (has_at(b, 0, std::string_view("II*\0", 4)) || has_at(b, 0, std::string_view("MM\0*", 4)) ||
      has_at(b, 0, std::string_view("II+\0", 4)) || has_at(b, 0, std::string_view("MM\0+", 4)))
    return Signature{K::image, "image/tiff", "TIFF image"};
  if (is_ico(b)) return Signature{K::image, "image/x-icon", "Windows icon"};
  if ((b.size() >= 2 && b[0] == 0xFF && b[1] == 0x0A) ||
      has_at(b, 0, std::string_view("\0\0\0\x0CJXL \r\n\x87\n", 12)))
    return Signature{K::image, "image/jxl", "JPEG XL image"};
  if (auto iso = iso_bmff(b, ext)) return iso;
  if (auto at = find_sig(b, "%PDF-", 1024); at && (*at == 0 || binaryish || ext == "pdf"))
    return Signature{K::pdf, "application/pdf", "PDF document"};
  if ((has_at(b, 0, "RIFF") || has_at(b, 0, "RIFX") || has_at(b, 0, "RF64")) && has_at(b, 8, "WAVE"))
    return Signature{K::audio, "audio/wav", "WAVE audio"};
  if (has_at(b, 0, "fLaC")) return Signature{K::audio, "audio/flac", "FLAC audio"};
  if (has_at(b, 0, "OggS") && !find_sig(b, "\x80theora", 128))
    return Signature{K::audio, "audio/ogg", "Ogg audio"};
  if (is_mp3(b)) return Signature{K::audio, "audio/mpeg", "MPEG audio (MP3)"};
  if (is_adts(b)) return Signature{K::audio, "audio/aac", "AAC audio (ADTS)"};
  return std::nullopt;
}

// True when the first element of this (UTF-8) text is <svg>, after an optional BOM, XML
// declaration, processing instructions, comments and DOCTYPE (with an internal subset).
inline bool is_svg(Bytes b) {
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

// True for a plain (ASCII) Netpbm header: P1, P2 or P3, then width and height (and for P2/P3 the
// maximum value) as decimal numbers, comments allowed. Such files are text to libmagic and to
// the UTF-8 check, but they are pictures: the image reader shows them, file_type="text" the numbers.
inline bool is_ascii_netpbm(Bytes b) {
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

// Raster formats only ImageMagick reads (in this libvips) whose coders decode pixels and nothing
// else: BMP, PSD, ICO and CUR, SGI, Sun raster, PCX. ImageMagick also reads script-like formats
// (MVG, MSL, TEXT) that can pull in other files, so other data never reaches it.
inline bool magick_raster(Bytes b) {
  if (has_at(b, 0, "BM") || has_at(b, 0, "8BPS")) return true;
  if (has_at(b, 0, std::string_view("\0\0\1\0", 4)) || has_at(b, 0, std::string_view("\0\0\2\0", 4)))
    return true;  // ICO, CUR
  if (has_at(b, 0, "\x01\xDA") && b.size() > 2 && b[2] <= 1) return true;  // SGI: storage 0/1
  if (has_at(b, 0, "\x59\xA6\x6A\x95")) return true;                      // Sun raster
  // PCX: manufacturer 10, version 0-5, encoding 0/1, 1-8 bits per plane.
  return b.size() > 3 && b[0] == 0x0A && b[1] <= 5 && b[2] <= 1 &&
         (b[3] == 1 || b[3] == 2 || b[3] == 4 || b[3] == 8);
}

}  // namespace mcpread::readers::detail
