#pragma once
// Internal pieces of charset detection and decoding shared by the charset*.cpp files and
// icu_converter.cpp. Not part of the public interface.
#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <string_view>

namespace mcpread::readers::charset_detail {

std::string upper(std::string_view s);
bool iconv_knows(const std::string& name);

// The decoder the WHATWG Encoding Standard (what browsers do) uses for a label, as an iconv name
// ("shift_jis" -> "CP932", "latin1" -> "WINDOWS-1252", "gbk" -> "GB18030"); "HZ-GB-2312" is
// decoded by ICU. Empty when the label is not one of the web's. `key` is upper case with '_'
// and ' ' written as '-'.
std::string_view web_decoder(std::string_view key);

// True when `key` (as for web_decoder) is only another name of its decoder ("CP1252").
bool spelling_of_decoder(std::string_view key);

// Charsets glibc's iconv lacks, decoded through ICU (icu_converter.cpp).
bool decoded_by_icu(std::string_view name);

// A decoder for one ICU charset, loaded with dlopen on first need.
class IcuDecoder {
 public:
  // Null with *error set (naming the library and why it failed) when ICU cannot be used.
  static std::unique_ptr<IcuDecoder> open(const std::string& name, std::string* error);
  virtual ~IcuDecoder() = default;
  // Appends the UTF-8 of `in` to `out`; invalid input becomes U+FFFD. `last` flushes and resets.
  virtual void convert(std::string_view in, std::string& out, bool last) = 0;
};

// The decoded text of `sample` in `charset` (iconv names or ICU's) and the number of U+FFFD
// that decoding put in; a sequence cut by the end of a sample that is not the whole file
// (`whole` false) is not counted.
struct Trial {
  std::string text;
  std::size_t replacements = 0;
};
Trial decode_sample(std::span<const unsigned char> sample, const std::string& charset, bool whole);

// How badly `decoder`'s text of the sample reads (undecodable bytes, symbols, capitals inside
// words, mixed scripts): lower is likelier (charset_suggest.cpp).
std::size_t implausibility_of(std::span<const unsigned char> sample, const std::string& decoder);

// `name` when it is one of the single-byte code pages ranked for suggestions, else empty.
std::string single_byte_decoder(std::string_view name);

// The single-byte code page whose text of the sample reads best, and its implausibility.
std::string likeliest_single_byte(std::span<const unsigned char> sample, std::size_t* score);

// The charset label a file declares in its first lines (Vim scriptencoding or modeline, Emacs
// coding, PEP 263, XML declaration, HTML meta), or empty (charset_declared.cpp).
std::string declared_charset(std::span<const unsigned char> sample);

// A CJK decoder that reads the sample with no invalid sequence when `answer` (uchardet's,
// mapped; empty when it had none) leaves some, chosen by how much the text is its language's;
// empty when none does (charset_cjk.cpp).
std::string cjk_reading(std::span<const unsigned char> sample, const std::string& answer);

}  // namespace mcpread::readers::charset_detail
