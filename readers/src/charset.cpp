#include "mcpread/readers/charset.hpp"

#include "mcpread/readers/utf8.hpp"
#include "utf8_internal.hpp"

#include <iconv.h>
#include <uchardet/uchardet.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <utility>

namespace mcpread::readers {

namespace {

constexpr std::string_view kUtf8 = "UTF-8";

std::string upper(std::string_view s) {
  std::string r(s);
  for (char& c : r)
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  return r;
}

bool starts_with(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

bool iconv_knows(const std::string& name) {
  iconv_t cd = iconv_open("UTF-8", name.c_str());
  if (cd == reinterpret_cast<iconv_t>(-1)) return false;
  iconv_close(cd);
  return true;
}

// Encodings whose bytes mean different things after a shift or escape sequence. glibc's decoders
// for them may report an error at a position before bytes an earlier call already consumed (a
// UTF-7 base64 run is rolled back to its '+'), which a converter fed in chunks cannot undo.
bool stateful(const std::string& upper_name) {
  return starts_with(upper_name, "UTF-7") || starts_with(upper_name, "ISO-2022") ||
         starts_with(upper_name, "CSISO2022") || starts_with(upper_name, "HZ");
}

// True when ASCII text (tab, CR, LF and printable characters) encodes to the same bytes and the
// encoding is not stateful, so that 0x0A is always a newline and never part of another character.
bool ascii_compatible(const std::string& name) {
  if (starts_with(name, "UTF-16") || starts_with(name, "UTF-32") || starts_with(name, "UCS-") ||
      stateful(upper(name)))
    return false;
  iconv_t cd = iconv_open(name.c_str(), "UTF-8");
  if (cd == reinterpret_cast<iconv_t>(-1)) return false;
  static constexpr std::string_view kProbe = "\t\r\n !\"#09:@AZ[\\]^_`az{|}~";
  std::string in(kProbe);
  std::array<char, 128> buf{};
  char* src = in.data();
  std::size_t left = in.size();
  char* dst = buf.data();
  std::size_t room = buf.size();
  const std::size_t r = iconv(cd, &src, &left, &dst, &room);
  iconv(cd, nullptr, nullptr, &dst, &room);
  iconv_close(cd);
  return r != static_cast<std::size_t>(-1) &&
         std::string_view(buf.data(), static_cast<std::size_t>(dst - buf.data())) == kProbe;
}

DetectedCharset named(std::string name, std::size_t bom = 0) {
  DetectedCharset d;
  d.ascii_compatible = name == kUtf8 || ascii_compatible(name);
  d.name = std::move(name);
  d.bom_bytes = bom;
  return d;
}

bool is_text_ascii(unsigned char c) { return c == 0x09 || c == 0x0A || c == 0x0D || (c >= 0x20 && c < 0x7F); }

// Mostly valid UTF-8: no invalid sequence, or at least 95% of the non-ASCII sequences valid.
// An incomplete sequence at the very end (the sample was cut there) does not count.
bool mostly_utf8(std::span<const unsigned char> s) {
  std::size_t valid = 0;
  std::size_t invalid = 0;
  std::size_t i = 0;
  const std::size_t n = s.size();
  while (i < n) {
    while (i + 8 <= n && utf8::detail::ascii8(s.data() + i)) i += 8;
    if (i >= n) break;
    if (s[i] < 0x80) {
      ++i;
      continue;
    }
    const auto seq = utf8::detail::next_sequence(s.data() + i, n - i);
    if (seq.valid) {
      ++valid;
    } else if (!seq.truncated) {
      ++invalid;
    }
    i += seq.len;
  }
  if (invalid == 0) return true;
  return valid * 100 >= 95 * (valid + invalid);
}

bool has_c1_bytes(std::span<const unsigned char> s) {
  return std::any_of(s.begin(), s.end(), [](unsigned char c) { return c >= 0x80 && c <= 0x9F; });
}

// True when every non-ASCII byte pair is in the EUC-KR (KS X 1001) range, so that the narrower
// and better-known EUC-KR name can be reported instead of its superset CP949 (UHC).
bool only_euc_kr_pairs(std::span<const unsigned char> s) {
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] < 0x80) continue;
    if (i + 1 == s.size()) return true;  // cut by the end of the sample
    if (s[i] < 0xA1 || s[i] > 0xFE || s[i + 1] < 0xA1 || s[i + 1] > 0xFE) return false;
    ++i;
  }
  return true;
}

// Maps a uchardet answer to an iconv name; empty when the answer is of no use.
std::string from_uchardet(std::string_view guess, std::span<const unsigned char> sample) {
  std::string g = upper(guess);
  if (g.empty() || g == "ASCII" || g == "UTF-8" || starts_with(g, "UTF-") ||
      starts_with(g, "X-ISO-10646"))
    return {};
  if (g == "GB2312" || g == "GBK" || g == "EUC-CN" || g == "GB18030") return "GB18030";
  if (g == "UHC" || g == "EUC-KR" || g == "CP949") return only_euc_kr_pairs(sample) ? "EUC-KR" : "CP949";
  if (g == "ISO-8859-1" && has_c1_bytes(sample)) return "WINDOWS-1252";
  if (iconv_knows(g)) return g;
  if (starts_with(g, "X-") && iconv_knows(g.substr(2))) return g.substr(2);
  return {};
}

std::string ask_uchardet(std::span<const unsigned char> sample) {
  uchardet_t ud = uchardet_new();
  if (ud == nullptr) return {};
  std::string guess;
  if (uchardet_handle_data(ud, reinterpret_cast<const char*>(sample.data()), sample.size()) == 0) {
    uchardet_data_end(ud);
    const char* cs = uchardet_get_charset(ud);
    if (cs != nullptr) guess = cs;
  }
  uchardet_delete(ud);
  return guess;
}

struct Alias {
  std::string_view key;  // upper case, '_' and ' ' written as '-'
  std::string_view name;
};

constexpr std::array kAliases{
    Alias{"UTF8", "UTF-8"},           Alias{"UTF-8", "UTF-8"},
    Alias{"UTF-8-SIG", "UTF-8"},      Alias{"ASCII", "UTF-8"},
    Alias{"US-ASCII", "UTF-8"},       Alias{"UTF16", "UTF-16"},
    Alias{"UTF-16", "UTF-16"},        Alias{"UTF16LE", "UTF-16LE"},
    Alias{"UTF-16LE", "UTF-16LE"},    Alias{"UTF16BE", "UTF-16BE"},
    Alias{"UTF-16BE", "UTF-16BE"},    Alias{"UTF32", "UTF-32"},
    Alias{"UTF-32", "UTF-32"},        Alias{"UTF32LE", "UTF-32LE"},
    Alias{"UTF-32LE", "UTF-32LE"},    Alias{"UTF32BE", "UTF-32BE"},
    Alias{"UTF-32BE", "UTF-32BE"},    Alias{"LATIN1", "ISO-8859-1"},
    Alias{"LATIN-1", "ISO-8859-1"},   Alias{"L1", "ISO-8859-1"},
    Alias{"ISO8859-1", "ISO-8859-1"}, Alias{"ISO88591", "ISO-8859-1"},
    Alias{"ISO-8859-1", "ISO-8859-1"}, Alias{"CP1252", "WINDOWS-1252"},
    Alias{"CP-1252", "WINDOWS-1252"}, Alias{"WIN1252", "WINDOWS-1252"},
    Alias{"WINDOWS-1252", "WINDOWS-1252"}, Alias{"ANSI", "WINDOWS-1252"},
    Alias{"SJIS", "SHIFT_JIS"},       Alias{"S-JIS", "SHIFT_JIS"},
    Alias{"SHIFTJIS", "SHIFT_JIS"},   Alias{"SHIFT-JIS", "SHIFT_JIS"},
    Alias{"MS-KANJI", "SHIFT_JIS"},   Alias{"CP932", "CP932"},
    Alias{"MS932", "CP932"},          Alias{"WINDOWS-31J", "CP932"},
    Alias{"GBK", "GB18030"},          Alias{"GB2312", "GB18030"},
    Alias{"GB-2312", "GB18030"},      Alias{"CP936", "GB18030"},
    Alias{"EUC-CN", "GB18030"},       Alias{"EUCCN", "GB18030"},
    Alias{"GB18030", "GB18030"},      Alias{"GB-18030", "GB18030"},
    Alias{"BIG5", "BIG5"},            Alias{"BIG-5", "BIG5"},
    Alias{"CP950", "CP950"},          Alias{"BIG5-HKSCS", "BIG5-HKSCS"},
    Alias{"EUC-KR", "EUC-KR"},        Alias{"EUCKR", "EUC-KR"},
    Alias{"CP949", "CP949"},          Alias{"UHC", "CP949"},
    Alias{"MS949", "CP949"},          Alias{"EUC-JP", "EUC-JP"},
    Alias{"EUCJP", "EUC-JP"},         Alias{"UJIS", "EUC-JP"},
    Alias{"KOI8R", "KOI8-R"},         Alias{"KOI8U", "KOI8-U"},
};

}  // namespace

std::string utf16_without_bom(std::span<const unsigned char> sample) {
  const std::size_t pairs = sample.size() / 2;
  if (pairs < 2) return {};
  // UTF-16 text of any kind has zero bytes; most files have none, and memchr says so fast.
  if (std::memchr(sample.data(), 0, sample.size()) == nullptr) return {};
  std::size_t le_text = 0;  // "a\0": ASCII text in the low byte, first
  std::size_t be_text = 0;  // "\0a"
  std::size_t nul_even = 0;
  std::size_t nul_odd = 0;
  for (std::size_t i = 0; i < pairs; ++i) {
    const unsigned char a = sample[2 * i];
    const unsigned char b = sample[2 * i + 1];
    if (a == 0) ++nul_even;
    if (b == 0) ++nul_odd;
    if (b == 0 && is_text_ascii(a)) ++le_text;
    if (a == 0 && is_text_ascii(b)) ++be_text;
  }
  // Mostly ASCII text (>= 70% of the code units) with NULs on one side only (<= 5% on the other).
  if (le_text * 10 >= pairs * 7 && nul_even * 20 <= pairs) return "UTF-16LE";
  if (be_text * 10 >= pairs * 7 && nul_odd * 20 <= pairs) return "UTF-16BE";
  return {};
}

DetectedCharset detect_charset(std::span<const unsigned char> s) {
  auto starts = [&](std::initializer_list<unsigned char> bom) {
    return s.size() >= bom.size() && std::equal(bom.begin(), bom.end(), s.begin());
  };
  if (starts({0xEF, 0xBB, 0xBF})) return named("UTF-8", 3);
  if (starts({0xFF, 0xFE, 0x00, 0x00})) return named("UTF-32LE", 4);
  if (starts({0x00, 0x00, 0xFE, 0xFF})) return named("UTF-32BE", 4);
  if (starts({0xFF, 0xFE})) return named("UTF-16LE", 2);
  if (starts({0xFE, 0xFF})) return named("UTF-16BE", 2);
  if (auto utf16 = utf16_without_bom(s); !utf16.empty()) return named(std::move(utf16));
  if (mostly_utf8(s)) return named(std::string(kUtf8));
  if (auto name = from_uchardet(ask_uchardet(s), s); !name.empty()) return named(std::move(name));
  return named(std::string(kUtf8));  // unknown: show as UTF-8, bad bytes as U+FFFD
}

bool resolve_encoding_name(std::string_view requested, DetectedCharset* out) {
  while (!requested.empty() && (requested.front() == ' ' || requested.front() == '\t'))
    requested.remove_prefix(1);
  while (!requested.empty() && (requested.back() == ' ' || requested.back() == '\t'))
    requested.remove_suffix(1);
  if (requested.empty() || requested.size() > 64 || !utf8::is_valid(requested)) return false;
  const std::string up = upper(requested);
  if (up.find('/') != std::string::npos) return false;  // no iconv "//TRANSLIT" suffixes
  std::string key = up;
  std::replace(key.begin(), key.end(), '_', '-');
  std::replace(key.begin(), key.end(), ' ', '-');
  std::string name;
  for (const auto& alias : kAliases) {
    if (alias.key == key) {
      name = alias.name;
      break;
    }
  }
  if (name.empty()) {
    if (iconv_knows(up)) {
      name = up;
    } else if (iconv_knows(key)) {
      name = key;
    } else {
      return false;
    }
  } else if (name != kUtf8 && !iconv_knows(name)) {
    return false;
  }
  if (out != nullptr) *out = named(std::move(name));
  return true;
}

// ---------------------------------------------------------------------------------------------

struct Utf8Converter::Impl {
  iconv_t cd = reinterpret_cast<iconv_t>(-1);
  std::size_t unit = 1;  // bytes skipped after an invalid sequence
  std::string carry;     // an incomplete sequence (or, when stateful, line) from the previous chunk
  bool stateful = false;
  // The previous chunk ended right after an invalid sequence, before the retry that decides
  // whether its bytes are still ahead (see convert()).
  bool retry_pending = false;
};

namespace {
// A stateful chunk is converted up to its last line end only: the shift state of these encodings
// goes back to ASCII by the end of a line, so no decoder rolls back across one. A line longer than
// this is converted as it comes (where a rollback across chunks becomes possible again).
constexpr std::size_t kMaxStatefulCarry = 64 * 1024;
}  // namespace

Utf8Converter::Utf8Converter(const std::string& from_charset) : impl_(std::make_unique<Impl>()) {
  impl_->cd = iconv_open("UTF-8", from_charset.c_str());
  const std::string up = upper(from_charset);
  impl_->stateful = stateful(up);
  if (starts_with(up, "UTF-16") || starts_with(up, "UCS-2") || starts_with(up, "UNICODE"))
    impl_->unit = 2;
  else if (starts_with(up, "UTF-32") || starts_with(up, "UCS-4"))
    impl_->unit = 4;
}

Utf8Converter::~Utf8Converter() {
  if (ok()) iconv_close(impl_->cd);
}

bool Utf8Converter::ok() const { return impl_->cd != reinterpret_cast<iconv_t>(-1); }

void Utf8Converter::convert(std::string_view in, std::string& out, bool last) {
  std::string work;
  if (!impl_->carry.empty()) {
    work.reserve(impl_->carry.size() + in.size());
    work.append(impl_->carry).append(in);
    impl_->carry.clear();
    in = work;
  }
  if (!ok()) {  // no converter: keep what is valid UTF-8, never emit anything else
    if (!last) {  // a sequence cut by the chunk's end waits for the rest
      for (std::size_t back = 1; back <= 3 && back <= in.size(); ++back) {
        const auto* p = reinterpret_cast<const unsigned char*>(in.data()) + in.size() - back;
        if (*p < 0xC0) continue;
        if (utf8::detail::next_sequence(p, back).truncated) {
          impl_->carry.assign(in.substr(in.size() - back));
          in.remove_suffix(back);
        }
        break;
      }
    }
    utf8::append_sanitized(in, out);
    return;
  }
  if (impl_->stateful && !last) {
    const std::size_t line_end = in.rfind('\n');
    const std::size_t keep = line_end == std::string_view::npos ? in.size() : in.size() - line_end - 1;
    if (keep <= kMaxStatefulCarry) {
      impl_->carry.assign(in.substr(in.size() - keep));
      in.remove_suffix(keep);
      if (in.empty()) return;
    }
  }
  std::array<char, 16384> buf{};
  char* src = const_cast<char*>(in.data());
  std::size_t left = in.size();
  // glibc's decoders for UTF-8 and UCS-4 pass code points above U+10FFFF through, encoded as
  // invalid UTF-8: what iconv writes is checked like any other input.
  auto drain = [&](char* end) {
    utf8::append_sanitized(std::string_view(buf.data(), static_cast<std::size_t>(end - buf.data())), out);
  };
  // After an invalid sequence (EILSEQ) iconv is called once more at the same place before anything
  // is skipped: most decoders leave `src` on the invalid bytes, but some have stepped over them
  // already (CP949's unassigned pairs, ISO-2022-CN-EXT's SO without a designation), and skipping
  // then would drop a good character. Only a second failure with no progress skips a code unit.
  // When a chunk ends right there, the retry happens at the start of the next one, so that the
  // result does not depend on where the chunks are cut.
  bool retrying = impl_->retry_pending;
  impl_->retry_pending = false;
  while (left > 0) {
    const char* const before = src;
    char* dst = buf.data();
    std::size_t room = buf.size();
    const std::size_t r = iconv(impl_->cd, &src, &left, &dst, &room);
    const int err = errno;
    drain(dst);
    if (src != before) retrying = false;
    if (r != static_cast<std::size_t>(-1)) break;
    if (err == E2BIG) continue;
    if (err == EINVAL) {  // incomplete sequence at the end of the input
      if (last) {
        out.append(utf8::detail::kReplacement);
      } else {
        impl_->carry.insert(0, src, left);
        impl_->retry_pending = retrying;
      }
      left = 0;
      retrying = false;
      break;
    }
    // EILSEQ (or anything else)
    if (retrying) {  // still stuck: the invalid bytes are here; skip one code unit and go on
      const std::size_t skip = std::min(impl_->unit, left);
      src += skip;
      left -= skip;
      retrying = false;
    } else {
      out.append(utf8::detail::kReplacement);
      retrying = true;
    }
  }
  if (retrying && !last) impl_->retry_pending = true;
  if (last) {
    char* dst = buf.data();
    std::size_t room = buf.size();
    iconv(impl_->cd, nullptr, nullptr, &dst, &room);  // the shift state's closing sequence
    drain(dst);
    iconv(impl_->cd, nullptr, nullptr, nullptr, nullptr);
    impl_->carry.clear();
    impl_->retry_pending = false;
  }
}

}  // namespace mcpread::readers
