#pragma once
// Charset detection (BOM, UTF-8 validity, uchardet) and conversion to UTF-8 (iconv).
#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <string_view>

namespace mcpread::readers {

struct DetectedCharset {
  std::string name;          // iconv name: "UTF-8", "UTF-16LE", "GB18030", "SHIFT_JIS", "WINDOWS-1252", ...
  std::size_t bom_bytes = 0; // length of a byte-order mark at the start of the file, to skip
  bool ascii_compatible = true;  // '\n' is the byte 0x0A and never part of another character
};

// Detects the charset from a sample of the file's start. UTF-8 (and plain ASCII) are reported
// as "UTF-8". Invalid-but-mostly-UTF-8 input stays "UTF-8" (bad bytes become U+FFFD later).
DetectedCharset detect_charset(std::span<const unsigned char> sample);

// "UTF-16LE" / "UTF-16BE" when a sample with no BOM is UTF-16 (NUL bytes alternating with
// mostly-ASCII bytes), else empty. Used by classify() so such files count as text, not binary.
std::string utf16_without_bom(std::span<const unsigned char> sample);

// Normalises a user-supplied encoding name ("latin1", "utf8", "sjis", "gbk", ...) to one iconv
// accepts. Returns false when iconv does not know it.
bool resolve_encoding_name(std::string_view requested, DetectedCharset* out);

// Converts chunks of one charset to UTF-8. Invalid sequences become U+FFFD; a sequence split
// across chunks is carried over to the next call.
class Utf8Converter {
 public:
  explicit Utf8Converter(const std::string& from_charset);
  ~Utf8Converter();
  Utf8Converter(const Utf8Converter&) = delete;
  Utf8Converter& operator=(const Utf8Converter&) = delete;
  [[nodiscard]] bool ok() const;
  // Appends the UTF-8 of `in` to `out`. `last` flushes any incomplete trailing sequence as U+FFFD.
  void convert(std::string_view in, std::string& out, bool last);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace mcpread::readers
