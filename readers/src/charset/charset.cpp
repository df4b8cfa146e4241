#include "mcpread/readers/charset.hpp"

#include "charset_internal.hpp"
#include "mcpread/readers/utf8.hpp"
#include "utf8_internal.hpp"
#include "whatwg_decoder.hpp"

#if defined(_WIN32)
#include "codepage_iconv.hpp"  // the system's code pages in iconv's place
#else
#include <iconv.h>
#endif

#include <algorithm>
#include <cassert>
#include <array>
#include <cerrno>
#include <cstring>
#include <utility>

namespace mcpread::readers {

namespace charset_detail {

std::string upper(std::string_view s) {
  std::string r(s);
  for (char& c : r)
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  return r;
}

bool iconv_knows(const std::string& name) {
  iconv_t cd = iconv_open("UTF-8", name.c_str());
  if (cd == reinterpret_cast<iconv_t>(-1)) return false;
  iconv_close(cd);
  return true;
}

Trial decode_sample(std::span<const unsigned char> sample, const std::string& charset, bool whole) {
  Trial t;
  Utf8Converter c(charset);
  const std::string_view in(reinterpret_cast<const char*>(sample.data()), sample.size());
  c.convert(in, t.text, whole);
  std::size_t from = 0;
  while ((from = t.text.find(utf8::detail::kReplacement, from)) != std::string::npos) {
    ++t.replacements;
    from += utf8::detail::kReplacement.size();
  }
  return t;
}

}  // namespace charset_detail

using charset_detail::iconv_knows;
using charset_detail::upper;

namespace {

constexpr std::string_view kUtf8 = "UTF-8";

// Encodings whose bytes mean different things after a shift or escape sequence. glibc's decoders
// for them may report an error at a position before bytes an earlier call already consumed (a
// UTF-7 base64 run is rolled back to its '+'), which a converter fed in chunks cannot undo.
bool stateful(const std::string& upper_name) {
  return upper_name.starts_with("UTF-7") || upper_name.starts_with("ISO-2022") ||
         upper_name.starts_with("CSISO2022") || upper_name.starts_with("HZ");
}

}  // namespace

bool charset_ascii_compatible(const std::string& name) {
  if (name == kUtf8) return true;
  if (name.starts_with("UTF-16") || name.starts_with("UTF-32") || name.starts_with("UCS-") ||
      stateful(upper(name)))
    return false;
  static constexpr std::string_view kProbe = "\t\r\n !\"#09:@AZ[\\]^_`az{|}~";
  // The standard's decoders are asked themselves (Windows' code pages have no CP932 or GB18030).
  if (const auto encoding = charset_detail::whatwg_encoding_of(upper(name)); !encoding.empty())
    if (const auto decoder = charset_detail::WhatwgDecoder::open(encoding)) {
      std::string decoded;
      decoder->convert(kProbe, decoded, true);
      return decoded == kProbe;
    }
  iconv_t cd = iconv_open(name.c_str(), "UTF-8");
  if (cd == reinterpret_cast<iconv_t>(-1)) return false;
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

std::string describe_charset(const DetectedCharset& cs) {
  if (cs.label.empty()) return cs.name;
  return cs.name + " (the decoder browsers use for " + cs.label + ")";
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
  std::string name(charset_detail::web_decoder(key));
  if (name.empty()) {
    if (iconv_knows(up)) {
      name = up;
    } else if (iconv_knows(key)) {
      name = key;
    } else {
      return false;
    }
  } else if (name != kUtf8 && !charset_detail::decoded_by_icu(name) &&
             charset_detail::whatwg_encoding_of(name).empty() && !iconv_knows(name)) {
    return false;  // the standard's decoders need no iconv (Windows' code pages lack CP932)
  }
  // The label as asked, when it names another decoder ("shift_jis" read as CP932) rather than
  // spelling this one differently ("utf8").
  auto bare = [](std::string s) {
    std::erase(s, '-');
    return s;
  };
  std::string label = bare(name) == bare(key) || charset_detail::spelling_of_decoder(key)
                          ? std::string()
                          : std::string(requested);
  if (out != nullptr) *out = named_charset(std::move(name), 0, std::move(label));
  return true;
}

// ---------------------------------------------------------------------------------------------

struct Utf8Converter::Impl {
  // The standard's decoder for the encodings it defines; iconv or ICU for the others.
  std::unique_ptr<charset_detail::WhatwgDecoder> whatwg;
  iconv_t cd = reinterpret_cast<iconv_t>(-1);
  std::unique_ptr<charset_detail::IcuDecoder> icu;  // instead of iconv, for what glibc lacks
  std::string error;
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
  const std::string up = upper(from_charset);
  auto encoding = charset_detail::whatwg_encoding_of(up);
#if defined(_WIN32)
  // No iconv to know glibc's names for the multi-byte charsets (SHIFT_JIS, EUC-KR, BIG5, GBK):
  // such a name is taken as the label it also is, for the standard's decoder it names.
  if (DetectedCharset labelled; encoding.empty() && resolve_encoding_name(from_charset, &labelled))
    encoding = charset_detail::whatwg_encoding_of(labelled.name);
#endif
  if (!encoding.empty()) {
    impl_->whatwg = charset_detail::WhatwgDecoder::open(encoding);
    if (!impl_->whatwg) impl_->error = "encoding_rs has no decoder for " + std::string(encoding) + ".";
    return;
  }
  if (charset_detail::decoded_by_icu(up)) {
    impl_->icu = charset_detail::IcuDecoder::open(from_charset, &impl_->error);
    return;
  }
  impl_->cd = iconv_open("UTF-8", from_charset.c_str());
  if (!ok()) impl_->error = "The C library's iconv has no decoder for " + from_charset + ".";
  impl_->stateful = stateful(up);
  if (up.starts_with("UTF-16") || up.starts_with("UCS-2") || up.starts_with("UNICODE"))
    impl_->unit = 2;
  else if (up.starts_with("UTF-32") || up.starts_with("UCS-4"))
    impl_->unit = 4;
}

Utf8Converter::~Utf8Converter() {
  if (impl_->cd != reinterpret_cast<iconv_t>(-1)) iconv_close(impl_->cd);
}

bool Utf8Converter::ok() const {
  return impl_->whatwg != nullptr || impl_->cd != reinterpret_cast<iconv_t>(-1) || impl_->icu != nullptr;
}

const std::string& Utf8Converter::error() const { return impl_->error; }

void Utf8Converter::convert(std::string_view in, std::string& out, bool last) {
  if (impl_->whatwg) {  // keeps its own state between chunks
    impl_->whatwg->convert(in, out, last);
    return;
  }
  std::string work;
  if (!impl_->carry.empty()) {
    work.reserve(impl_->carry.size() + in.size());
    work.append(impl_->carry).append(in);
    impl_->carry.clear();
    in = work;
  }
  if (impl_->icu) {
    impl_->icu->convert(in, out, last);
    return;
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

namespace {

bool starts_with_bytes(std::string_view data, std::string_view bom) {
  return data.substr(0, bom.size()) == bom;
}

}  // namespace

bool charset_for_request(const std::string& requested, std::string_view sample, DetectedCharset* cs) {
  if (!resolve_encoding_name(requested, cs)) return false;
  const std::string_view utf8_bom = "\xEF\xBB\xBF";
  const std::string_view le16 = "\xFF\xFE";
  const std::string_view be16 = "\xFE\xFF";
  const std::string_view le32("\xFF\xFE\x00\x00", 4);
  const std::string_view be32("\x00\x00\xFE\xFF", 4);
  auto pick = [&](const char* name, std::size_t bom) {
    [[maybe_unused]] const bool known = resolve_encoding_name(name, cs);
    assert(known);  // the Unicode names picked here are all known
    cs->bom_bytes = bom;
  };
  const std::string name = cs->name;
  if (name == "UTF-8" && starts_with_bytes(sample, utf8_bom)) cs->bom_bytes = 3;
  if (name == "UTF-16LE" && starts_with_bytes(sample, le16)) cs->bom_bytes = 2;
  if (name == "UTF-16BE" && starts_with_bytes(sample, be16)) cs->bom_bytes = 2;
  if (name == "UTF-32LE" && starts_with_bytes(sample, le32)) cs->bom_bytes = 4;
  if (name == "UTF-32BE" && starts_with_bytes(sample, be32)) cs->bom_bytes = 4;
  if (name == "UTF-16") {
    if (starts_with_bytes(sample, le16)) {
      pick("UTF-16LE", 2);
    } else if (starts_with_bytes(sample, be16)) {
      pick("UTF-16BE", 2);
    } else {
      const auto guess = utf16_without_bom(
          std::span(reinterpret_cast<const unsigned char*>(sample.data()), sample.size()));
      pick(guess.empty() ? "UTF-16LE" : guess.c_str(), 0);
    }
  }
  if (name == "UTF-32") {
    if (starts_with_bytes(sample, be32))
      pick("UTF-32BE", 4);
    else
      pick("UTF-32LE", starts_with_bytes(sample, le32) ? 4 : 0);
  }
  return true;
}

}  // namespace mcpread::readers
