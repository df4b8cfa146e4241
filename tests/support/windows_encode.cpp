#include "windows_encode.hpp"

#include <windows.h>

#include <array>
#include <stdexcept>
#include <string_view>

namespace mcpread::test {
namespace {

struct Named {
  std::string_view name;
  unsigned codepage;
};
// glibc's names for the charsets the tests encode to, and the Windows code page of each. EUC-KR
// and GB2312 go through their supersets (949, 936), which give the same bytes for every
// character of the smaller set.
constexpr std::array kCodepages = {
    Named{"CP437", 437},          Named{"CP737", 737},           Named{"CP850", 850},
    Named{"IBM866", 866},         Named{"KOI8-R", 20866},        Named{"KOI8-U", 21866},
    Named{"ISO-8859-1", 28591},   Named{"ISO-8859-2", 28592},    Named{"ISO-8859-5", 28595},
    Named{"ISO-8859-7", 28597},   Named{"ISO-8859-15", 28605},   Named{"WINDOWS-1250", 1250},
    Named{"WINDOWS-1251", 1251},  Named{"WINDOWS-1252", 1252},   Named{"WINDOWS-1253", 1253},
    Named{"WINDOWS-1254", 1254},  Named{"WINDOWS-1255", 1255},   Named{"WINDOWS-1256", 1256},
    Named{"SHIFT_JIS", 932},      Named{"CP932", 932},           Named{"EUC-JP", 20932},
    Named{"CP949", 949},          Named{"EUC-KR", 949},          Named{"JOHAB", 1361},
    Named{"GB2312", 936},         Named{"GBK", 936},             Named{"GB18030", 54936},
    Named{"BIG5", 950},           Named{"ISO-2022-JP", 50220},   Named{"ISO-2022-KR", 50225},
};

std::wstring wide(const std::string& utf8) {
  if (utf8.empty()) return {};
  const int n = ::MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, utf8.data(), static_cast<int>(utf8.size()),
                                      nullptr, 0);
  if (n <= 0) throw std::runtime_error("not UTF-8: " + utf8);
  std::wstring w(static_cast<std::size_t>(n), L'\0');
  ::MultiByteToWideChar(CP_UTF8, 0, utf8.data(), static_cast<int>(utf8.size()), w.data(), n);
  return w;
}

// `w` in `codepage`; `lost` says whether a character had no bytes there (for the code pages that
// can tell: not GB18030, which has bytes for every character, nor the ISO-2022 ones).
std::string narrow(std::wstring_view w, unsigned codepage, bool* lost) {
  const bool can_tell = codepage != 54936 && codepage < 50000;
  BOOL used_default = FALSE;
  const int n = ::WideCharToMultiByte(codepage, 0, w.data(), static_cast<int>(w.size()), nullptr, 0, nullptr,
                                      can_tell ? &used_default : nullptr);
  if (n <= 0) throw std::runtime_error("WideCharToMultiByte failed for code page " + std::to_string(codepage));
  std::string out(static_cast<std::size_t>(n), '\0');
  ::WideCharToMultiByte(codepage, 0, w.data(), static_cast<int>(w.size()), out.data(), n, nullptr,
                        can_tell ? &used_default : nullptr);
  *lost = used_default != FALSE;
  return out;
}

}  // namespace

std::string windows_encode(const std::string& utf8_text, const std::string& charset, bool skip_unencodable) {
  std::string name = charset;
  for (char& c : name)
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  const std::wstring w = wide(utf8_text);
  if (name == "UTF-8") return utf8_text;
  if (name == "UTF-16LE" || name == "UTF-16BE" || name == "UTF-16") {
    std::string out = name == "UTF-16" ? std::string("\xFE\xFF") : std::string();  // glibc's: a mark, big-endian
    for (const wchar_t unit : w) {
      const auto lo = static_cast<char>(unit & 0xFF);
      const auto hi = static_cast<char>((unit >> 8) & 0xFF);
      out += name == "UTF-16LE" ? std::string{lo, hi} : std::string{hi, lo};  // UTF-16: big-endian
    }
    return out;
  }
  unsigned codepage = 0;
  for (const Named& n : kCodepages)
    if (n.name == name) codepage = n.codepage;
  if (codepage == 0) throw std::runtime_error("no Windows code page for " + charset);
  if (!skip_unencodable || codepage >= 50000) {
    bool lost = false;
    std::string out = narrow(w, codepage, &lost);
    if (lost && !skip_unencodable) throw std::runtime_error("not all of the text is in " + charset);
    return out;
  }
  // iconv's //IGNORE: each character on its own (a surrogate pair together), left out if lost.
  std::string out;
  for (std::size_t i = 0; i < w.size();) {
    const std::size_t len = (w[i] >= 0xD800 && w[i] <= 0xDBFF && i + 1 < w.size()) ? 2 : 1;
    bool lost = false;
    std::string bytes = narrow(std::wstring_view(w).substr(i, len), codepage, &lost);
    if (!lost) out += bytes;
    i += len;
  }
  return out;
}

}  // namespace mcpread::test
