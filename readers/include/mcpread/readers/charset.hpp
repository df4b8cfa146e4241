#pragma once
// Charset detection (BOM, UTF-8 validity, uchardet) and conversion to UTF-8: the WHATWG Encoding
// Standard's decoders (encoding_rs) for the encodings it defines, iconv (or ICU for what iconv
// lacks) for the others. Labels map to decoders as browsers map them.
#include "mcpread/readers/hint.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace mcpread::readers {

struct DetectedCharset {
  std::string name;          // the decoder: iconv name ("UTF-8", "CP932", "GB18030", ...) or ICU's ("HZ-GB-2312")
  std::string label;         // the label it decodes when that differs ("SHIFT_JIS" for CP932), else empty
  std::size_t bom_bytes = 0; // length of a byte-order mark at the start of the file, to skip
  bool ascii_compatible = true;  // '\n' is the byte 0x0A and never part of another character
};

// A DetectedCharset for decoder `name`, chosen for `label` (dropped when it is `name`).
DetectedCharset named_charset(std::string name, std::size_t bom = 0, std::string label = {});

// True when ASCII text encodes to the same bytes in `name` and it is not stateful.
[[nodiscard]] bool charset_ascii_compatible(const std::string& name);

// Detects the charset from a sample of the file's start. UTF-8 (and plain ASCII) are reported
// as "UTF-8". Invalid-but-mostly-UTF-8 input stays "UTF-8" (bad bytes become U+FFFD later).
DetectedCharset detect_charset(std::span<const unsigned char> sample);

// "UTF-16LE" / "UTF-16BE" when a sample with no BOM is UTF-16: NUL bytes on one side only,
// with mostly-ASCII bytes on the other or code units that read as text. Else empty.
std::string utf16_without_bom(std::span<const unsigned char> sample);

// For a sample that looks binary (control bytes, or libmagic names a binary format): the
// charset it is text in when one decodes it without an error and detection is confident
// (UTF-16 without a BOM, ISO-2022, CP949 Korean...); empty when it is not text.
DetectedCharset text_charset_of_binary(std::span<const unsigned char> sample);

// Normalises a user-supplied encoding label ("latin1", "utf8", "sjis", "gbk", ...) to the decoder
// browsers use for it, or else to a name iconv accepts. Returns false when neither knows it.
[[nodiscard]] bool resolve_encoding_name(std::string_view requested, DetectedCharset* out);

// The charset an `encoding` argument names, for a file starting with `sample`: the name resolved
// and, for Unicode encodings, the byte order from a matching byte-order mark (then skipped) or,
// for UTF-16 without one, from the bytes. False when the name is unknown.
[[nodiscard]] bool charset_for_request(const std::string& requested, std::string_view sample, DetectedCharset* cs);

// "CP932" or, when chosen for another label, "CP932 (the decoder browsers use for SHIFT_JIS)".
std::string describe_charset(const DetectedCharset& cs);

// Up to `max` charsets that decode `sample` best, likeliest first, as labels for `encoding`
// ("cp737", "windows-1253"): single-byte DOS and Windows code pages ranked by undecodable bytes
// and by how much the decoded text reads as words of one script.
std::vector<std::string> likely_charsets(std::span<const unsigned char> sample, std::size_t max = 3);

// The closing note for `count` U+FFFD that decoding `charset` put in the shown text: how many
// and, unless the file is UTF-8 with damage, the likeliest charsets and the `encoding` to pass,
// said by `wording`.
std::string replacement_note(std::uint64_t count, const std::string& charset,
                             std::span<const unsigned char> sample, const Wording& wording = {});

// Converts chunks of one charset to UTF-8. Invalid sequences become U+FFFD; a sequence split
// across chunks is carried over to the next call.
class Utf8Converter {
 public:
  explicit Utf8Converter(const std::string& from_charset);
  ~Utf8Converter();
  Utf8Converter(const Utf8Converter&) = delete;
  Utf8Converter& operator=(const Utf8Converter&) = delete;
  [[nodiscard]] bool ok() const;
  // Why ok() is false (no converter for the charset, or its library failed to load).
  [[nodiscard]] const std::string& error() const;
  // Appends the UTF-8 of `in` to `out`. `last` flushes any incomplete trailing sequence as U+FFFD.
  void convert(std::string_view in, std::string& out, bool last);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace mcpread::readers
