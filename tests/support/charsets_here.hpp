#pragma once
// Which charsets the readers decode on this system. The Windows build has no iconv and no ICU:
// besides the Encoding Standard's decoders (encoding_rs, on both systems), it decodes the
// single-byte code pages, UTF-16 and UTF-32 only. JOHAB, the JIS X 0213 charsets, ISO-2022-JP-2
// and -3, ISO-2022-KR and -CN, HZ, UTF-7 and TCVN are read on Linux alone (docs/portability.md
// says so); a test case about one of them says so in a MESSAGE on Windows instead of running.
#include <array>
#include <string>
#include <string_view>

namespace mcpread::test {

inline bool decoded_here([[maybe_unused]] std::string_view charset) {
#if defined(_WIN32)
  constexpr std::array<std::string_view, 11> kLinuxOnly = {
      "JOHAB",       "EUC-JISX0213", "SHIFT_JISX0213",  "ISO-2022-JP-2", "ISO-2022-JP-3",
      "ISO-2022-KR", "ISO-2022-CN",  "ISO-2022-CN-EXT", "HZ-GB-2312",    "UTF-7",
      "TCVN"};
  for (const std::string_view linux_only : kLinuxOnly)
    if (charset == linux_only) return false;
#endif
  return true;
}

// The MESSAGE of a case skipped for that reason.
#define MCPREAD_NOT_DECODED_HERE(charset) \
  MESSAGE("skipped on Windows: " << std::string(charset) << " is decoded on Linux only (no iconv or ICU in the Windows build)")

}  // namespace mcpread::test
