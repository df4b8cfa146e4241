#include "codepage_iconv.hpp"

#include "mcpread/common/windows_text.hpp"

#include <array>
#include <cerrno>
#include <cstdint>
#include <string>
#include <string_view>

namespace {

// glibc's names (upper case) for the single-byte charsets uchardet reports or a user may name,
// and Windows' code page for each.
struct Named {
  std::string_view name;
  unsigned codepage;
};
constexpr std::array kCodepages = {
    Named{"ASCII", 20127},       Named{"US-ASCII", 20127},     Named{"ANSI_X3.4-1968", 20127},
    Named{"ISO-8859-1", 28591},  Named{"LATIN1", 28591},       Named{"ISO-8859-2", 28592},
    Named{"ISO-8859-3", 28593},  Named{"ISO-8859-4", 28594},   Named{"ISO-8859-5", 28595},
    Named{"ISO-8859-6", 28596},  Named{"ISO-8859-7", 28597},   Named{"ISO-8859-8", 28598},
    Named{"ISO-8859-9", 28599},  Named{"ISO-8859-11", 874},    Named{"TIS-620", 874},
    Named{"ISO-8859-13", 28603}, Named{"ISO-8859-15", 28605},  Named{"CP437", 437},
    Named{"IBM437", 437},        Named{"CP737", 737},          Named{"CP775", 775},
    Named{"CP850", 850},         Named{"IBM850", 850},         Named{"CP852", 852},
    Named{"IBM852", 852},        Named{"CP855", 855},          Named{"IBM855", 855},
    Named{"CP857", 857},         Named{"CP860", 860},          Named{"CP861", 861},
    Named{"CP862", 862},         Named{"IBM862", 862},         Named{"CP863", 863},
    Named{"CP864", 864},         Named{"CP865", 865},          Named{"CP866", 866},
    Named{"IBM866", 866},        Named{"CP869", 869},          Named{"CP874", 874},
    Named{"IBM037", 37},         Named{"CP037", 37},           Named{"IBM500", 500},
    Named{"CP500", 500},         Named{"IBM1140", 1140},       Named{"CP1140", 1140},
    Named{"MACINTOSH", 10000},   Named{"MAC", 10000},          Named{"MAC-CYRILLIC", 10007},
    Named{"MACCYRILLIC", 10007}, Named{"MAC-CENTRALEUROPE", 10029}, Named{"MACGREEK", 10006},
    Named{"MACTURKISH", 10081},  Named{"MACICELAND", 10079},   Named{"KOI8-R", 20866},
    Named{"KOI8-U", 21866},      Named{"WINDOWS-1250", 1250},  Named{"WINDOWS-1251", 1251},
    Named{"WINDOWS-1252", 1252}, Named{"WINDOWS-1253", 1253},  Named{"WINDOWS-1254", 1254},
    Named{"WINDOWS-1255", 1255}, Named{"WINDOWS-1256", 1256},  Named{"WINDOWS-1257", 1257},
    Named{"WINDOWS-1258", 1258},
};

enum class Kind { table, utf32le, utf32be, utf32_bom, utf16le, utf16be, utf16_bom };

std::string upper(const char* s) {
  std::string r(s);
  for (char& c : r)
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  return r;
}

void put_utf8(char32_t c, char* out, std::size_t* n) {
  if (c < 0x80) {
    out[(*n)++] = static_cast<char>(c);
  } else if (c < 0x800) {
    out[(*n)++] = static_cast<char>(0xC0 | (c >> 6));
    out[(*n)++] = static_cast<char>(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    out[(*n)++] = static_cast<char>(0xE0 | (c >> 12));
    out[(*n)++] = static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out[(*n)++] = static_cast<char>(0x80 | (c & 0x3F));
  } else {
    out[(*n)++] = static_cast<char>(0xF0 | (c >> 18));
    out[(*n)++] = static_cast<char>(0x80 | ((c >> 12) & 0x3F));
    out[(*n)++] = static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out[(*n)++] = static_cast<char>(0x80 | (c & 0x3F));
  }
}

constexpr char32_t kInvalid = 0xFFFFFFFF;

}  // namespace

struct codepage_iconv {
  Kind kind = Kind::table;
  bool encode = false;                 // UTF-8 to the code page (charset.cpp's ASCII probe only)
  std::array<char32_t, 256> table{};  // byte -> character, kInvalid where the page has none
};

iconv_t iconv_open(const char* to, const char* from) {
  const std::string t = upper(to);
  const std::string f = upper(from);
  const bool encode = f == "UTF-8";
  if (!encode && t != "UTF-8") {
    errno = EINVAL;
    return reinterpret_cast<iconv_t>(-1);
  }
  const std::string& name = encode ? t : f;
  auto cd = new codepage_iconv;
  cd->encode = encode;
  if (name == "UTF-32LE" || name == "UCS-4LE") {
    cd->kind = Kind::utf32le;
  } else if (name == "UTF-32BE" || name == "UCS-4BE" || name == "UCS-4") {
    cd->kind = Kind::utf32be;
  } else if (name == "UTF-32") {
    cd->kind = Kind::utf32_bom;
  } else if (name == "UTF-16LE" || name == "UCS-2LE") {
    cd->kind = Kind::utf16le;
  } else if (name == "UTF-16BE" || name == "UCS-2BE") {
    cd->kind = Kind::utf16be;
  } else if (name == "UTF-16") {
    cd->kind = Kind::utf16_bom;
  } else {
    unsigned codepage = 0;
    for (const Named& n : kCodepages)
      if (n.name == name) codepage = n.codepage;
    CPINFO info{};
    if (codepage == 0 || !::GetCPInfo(codepage, &info) || info.MaxCharSize != 1) {
      delete cd;
      errno = EINVAL;
      return reinterpret_cast<iconv_t>(-1);
    }
    for (int b = 0; b < 256; ++b) {
      const char byte = static_cast<char>(b);
      wchar_t w = 0;
      cd->table[static_cast<std::size_t>(b)] =
          ::MultiByteToWideChar(codepage, MB_ERR_INVALID_CHARS, &byte, 1, &w, 1) == 1 ? char32_t{w} : kInvalid;
    }
  }
  if (encode && cd->kind != Kind::table) {  // only the probe's direction for code pages
    delete cd;
    errno = EINVAL;
    return reinterpret_cast<iconv_t>(-1);
  }
  return cd;
}

int iconv_close(iconv_t cd) {
  delete cd;
  return 0;
}

std::size_t iconv(iconv_t cd, char** in, std::size_t* in_left, char** out, std::size_t* out_left) {
  if (in == nullptr || *in == nullptr) return 0;  // no shift state to reset or close
  auto* src = reinterpret_cast<unsigned char*>(*in);
  std::size_t left = *in_left;
  auto done = [&](std::size_t result, int err) {
    *in = reinterpret_cast<char*>(src);
    *in_left = left;
    if (err != 0) errno = err;
    return result;
  };
  while (left > 0) {
    if (cd->encode) {  // ASCII and the characters the table holds; one byte each
      if (*out_left < 1) return done(static_cast<std::size_t>(-1), E2BIG);
      const char32_t c = src[0] < 0x80 ? src[0] : kInvalid;
      std::size_t b = 0;
      while (b < 256 && cd->table[b] != c) ++b;
      if (c == kInvalid || b == 256) return done(static_cast<std::size_t>(-1), EILSEQ);
      *(*out)++ = static_cast<char>(b);
      --*out_left;
      ++src;
      --left;
      continue;
    }
    char32_t c = 0;
    std::size_t used = 1;
    if (cd->kind == Kind::table) {
      c = cd->table[src[0]];
    } else if (cd->kind == Kind::utf16le || cd->kind == Kind::utf16be || cd->kind == Kind::utf16_bom) {
      // Code units of two bytes, a surrogate pair for characters past the BMP.
      const auto unit = [&](std::size_t at) -> char32_t {
        return cd->kind == Kind::utf16le ? char32_t{src[at]} | (char32_t{src[at + 1]} << 8)
                                         : char32_t{src[at + 1]} | (char32_t{src[at]} << 8);
      };
      if (left < 2) return done(static_cast<std::size_t>(-1), EINVAL);
      if (cd->kind == Kind::utf16_bom) {  // a byte-order mark decides; without one, big-endian
        const bool le = src[0] == 0xFF && src[1] == 0xFE;
        const bool be = src[0] == 0xFE && src[1] == 0xFF;
        cd->kind = le ? Kind::utf16le : Kind::utf16be;
        if (le || be) {
          src += 2;
          left -= 2;
          continue;
        }
      }
      used = 2;
      c = unit(0);
      if (c >= 0xDC00 && c <= 0xDFFF) {
        c = kInvalid;  // a low surrogate alone
      } else if (c >= 0xD800 && c <= 0xDBFF) {
        if (left < 4) return done(static_cast<std::size_t>(-1), EINVAL);
        const char32_t low = unit(2);
        if (low < 0xDC00 || low > 0xDFFF) {
          c = kInvalid;
        } else {
          c = 0x10000 + ((c - 0xD800) << 10) + (low - 0xDC00);
          used = 4;
        }
      }
    } else {
      if (left < 4) return done(static_cast<std::size_t>(-1), EINVAL);
      used = 4;
      const char32_t le = src[0] | (char32_t{src[1]} << 8) | (char32_t{src[2]} << 16) | (char32_t{src[3]} << 24);
      const char32_t be = src[3] | (char32_t{src[2]} << 8) | (char32_t{src[1]} << 16) | (char32_t{src[0]} << 24);
      if (cd->kind == Kind::utf32_bom) {  // a byte-order mark decides; without one, big-endian
        cd->kind = le == 0xFEFF ? Kind::utf32le : Kind::utf32be;
        if (le == 0xFEFF || be == 0xFEFF) {
          src += 4;
          left -= 4;
          continue;
        }
      }
      c = cd->kind == Kind::utf32le ? le : be;
      if (c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) c = kInvalid;
    }
    if (c == kInvalid) return done(static_cast<std::size_t>(-1), EILSEQ);
    if (*out_left < 4) return done(static_cast<std::size_t>(-1), E2BIG);
    std::size_t n = 0;
    put_utf8(c, *out, &n);
    *out += n;
    *out_left -= n;
    src += used;
    left -= used;
  }
  return done(0, 0);
}
