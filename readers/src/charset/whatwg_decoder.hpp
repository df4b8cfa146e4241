#pragma once
// The WHATWG Encoding Standard's decoders, from encoding_rs (Firefox's) through the Rust shim in
// whatwg_decoder/ (built by readers/CMakeLists.txt). Every encoding the standard defines is
// decoded here (the text reader checks UTF-8 itself, utf8.cpp); iconv and ICU decode only the
// charsets outside it.
#include <memory>
#include <string>
#include <string_view>

struct MCPReadWhatwgDecoder;  // the shim's decoder (whatwg_decoder/src/lib.rs)

namespace mcpread::readers::charset_detail {

// The standard's name of the encoding that decoder `name` (upper case, as in charset_labels.cpp:
// "CP932", "BIG5-HKSCS", "WINDOWS-1252") stands for: "Shift_JIS", "Big5", "windows-1252". Empty
// for charsets outside the standard (UTF-32, CP850, ISO-2022-KR, HZ-GB-2312).
std::string_view whatwg_encoding_of(std::string_view name);

// One stream's decoder; errors become U+FFFD exactly where the standard puts them.
class WhatwgDecoder {
 public:
  // Null when `encoding` (a name whatwg_encoding_of gives) is not one the library knows.
  static std::unique_ptr<WhatwgDecoder> open(std::string_view encoding);
  ~WhatwgDecoder();
  WhatwgDecoder(const WhatwgDecoder&) = delete;
  WhatwgDecoder& operator=(const WhatwgDecoder&) = delete;
  // Appends the UTF-8 of `in` to `out`. A sequence cut by the end of `in` waits for the next
  // call; `last` ends the stream (an unfinished sequence becomes U+FFFD) and starts a new one.
  void convert(std::string_view in, std::string& out, bool last);

 private:
  explicit WhatwgDecoder(MCPReadWhatwgDecoder* handle) : handle_(handle) {}
  MCPReadWhatwgDecoder* handle_;
};

}  // namespace mcpread::readers::charset_detail
