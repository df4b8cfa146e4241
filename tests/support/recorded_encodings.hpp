#pragma once
// The charset tests' text as glibc's iconv encodes it, for the Windows test builds: they have no
// iconv, and their code pages lack many of these charsets (Wine 8 has no GB18030 or ISO-2022
// page; no Windows has JIS X 0213, Big5-HKSCS, ISO-2022-CN, HZ or TCVN). With the recording, the
// Windows runs read the very bytes the Linux runs read. Recorded on Linux by
// scripts/windows/record-encodings.sh into recorded_encodings.inc, and checked against iconv by
// tests/unit/readers/test_recorded_encodings.cpp on every Linux run.
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace mcpread::test {

struct RecordedEncoding {
  std::string_view charset;  // as the tests name it: "GB18030", "ISO-2022-KR"
  bool skip_unencodable;     // iconv_encode's argument
  std::string_view utf8_hex, encoded_hex;
};

// Every recorded encoding.
std::span<const RecordedEncoding> recorded_encodings();
// The recorded bytes of `utf8_text` in `charset`; nothing when that text was not recorded.
std::optional<std::string> recorded_encoding(const std::string& utf8_text, const std::string& charset,
                                             bool skip_unencodable);
// Lower-case hex of `bytes`, and back.
std::string to_hex(std::string_view bytes);
std::string from_hex(std::string_view hex);

}  // namespace mcpread::test
