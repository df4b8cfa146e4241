// fuzz_charset: charset detection, conversion to UTF-8 and the UTF-8 helpers, on arbitrary bytes.
// The input is a file's start. It is decoded with the detected charset and with one more picked
// by the input's size (most inputs are detected as UTF-8, and the legacy decoders need bytes
// they did not choose). Its first line is also tried as an `encoding` argument.
//
// Checked: conversions give valid UTF-8, the same whether the bytes come in one piece or in
// chunks (the text reader converts chunk by chunk; inputs up to 32 bytes are cut at every point); a detected or accepted charset can be
// converted from; sanitizing gives valid UTF-8 and keeps valid input as it is; prefix_bytes()
// cuts on a character boundary after the requested number of characters.
//
// Readers fuzzed: text.
#include "fuzz_check.hpp"
#include "mcpread/readers/charset.hpp"
#include "mcpread/readers/utf8.hpp"
#include "utf8_internal.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace {

using mcpread::fuzz::check;
namespace readers = mcpread::readers;
namespace utf8 = mcpread::readers::utf8;

constexpr std::array<const char*, 18> kCharsets = {
    "UTF-16LE", "UTF-16BE", "UTF-16",   "UTF-32LE",    "SHIFT_JIS",    "CP932",
    "GB18030",  "BIG5",     "BIG5-HKSCS", "EUC-JP",    "EUC-KR",       "CP949",
    "ISO-2022-JP", "UTF-7", "WINDOWS-1252", "KOI8-R", "ISO-2022-KR",  "HZ-GB-2312"};

std::string convert(const std::string& charset, std::string_view bytes, std::size_t chunk) {
  readers::Utf8Converter converter(charset);
  check(converter.ok(), "a detected or accepted charset can be converted from");
  std::string out;
  do {
    const std::size_t n = std::min(chunk, bytes.size());
    converter.convert(bytes.substr(0, n), out, n == bytes.size());
    bytes.remove_prefix(n);
  } while (!bytes.empty());
  return out;
}

void check_conversion(const std::string& charset, std::string_view bytes) {
  const std::string whole = convert(charset, bytes, bytes.size());
  check(utf8::is_valid(whole), "conversion gives valid UTF-8");
  // Chunks of 1..7 bytes split every multi-byte sequence somewhere.
  const std::size_t chunk = 1 + bytes.size() % 7;
  check(convert(charset, bytes, chunk) == whole, "conversion in chunks gives what it gives in one piece");
  // Short inputs: every split point into two pieces.
  if (bytes.size() > 32) return;
  for (std::size_t cut = 1; cut < bytes.size(); ++cut) {
    readers::Utf8Converter converter(charset);
    std::string out;
    converter.convert(bytes.substr(0, cut), out, false);
    converter.convert(bytes.substr(cut), out, true);
    check(out == whole, "conversion cut anywhere gives what it gives in one piece");
  }
}

void check_utf8_helpers(std::string_view bytes) {
  const std::string clean = utf8::sanitized(bytes);
  check(utf8::is_valid(clean), "sanitized() gives valid UTF-8");
  check(utf8::sanitized(clean) == clean, "sanitized() keeps valid UTF-8 as it is");
  if (utf8::is_valid(bytes)) check(clean == bytes, "valid input is not changed");

  std::string prefix;
  const auto r = utf8::detail::append_sanitized_prefix(bytes, bytes.size() + 1, prefix);
  check(prefix == clean && r.consumed == bytes.size(), "an unbounded sanitized prefix is the whole");

  const std::size_t chars = utf8::count_chars(clean);
  for (std::size_t k : {std::size_t{0}, std::size_t{1}, chars / 2, chars, chars + 1}) {
    const std::size_t cut = utf8::prefix_bytes(clean, k);
    check(cut <= clean.size(), "prefix_bytes() stays inside the text");
    const std::string_view head = std::string_view(clean).substr(0, cut);
    check(utf8::is_valid(head), "prefix_bytes() cuts on a character boundary");
    check(utf8::count_chars(head) == std::min(k, chars), "prefix_bytes() keeps k characters");

    std::string limited;
    const auto p = utf8::detail::append_sanitized_prefix(bytes, k, limited);
    check(utf8::is_valid(limited) && p.chars <= k && p.consumed <= bytes.size(),
          "a sanitized prefix is valid UTF-8 of at most k characters");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  const readers::DetectedCharset detected = readers::detect_charset(std::span(data, size));
  check(!detected.name.empty() && detected.bom_bytes <= size, "detection names a charset");
  check_conversion(detected.name, bytes.substr(detected.bom_bytes));
  check_conversion(kCharsets[size % kCharsets.size()], bytes);

  const std::string utf16 = readers::utf16_without_bom(std::span(data, size));
  check(utf16.empty() || utf16 == "UTF-16LE" || utf16 == "UTF-16BE", "UTF-16 without BOM is LE or BE");

  readers::DetectedCharset requested;
  const std::string_view first_line = bytes.substr(0, std::min<std::size_t>(bytes.find('\n'), 80));
  if (readers::resolve_encoding_name(first_line, &requested)) check_conversion(requested.name, bytes);

  check_utf8_helpers(bytes);
  return 0;
}
