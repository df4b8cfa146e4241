#pragma once
// UTF-8 helpers used on every text path so that every response is valid UTF-8 JSON.
#include <cstddef>
#include <string>
#include <string_view>

namespace mcpread::readers::utf8 {

// Appends `in` to `out`, replacing each invalid or incomplete sequence with U+FFFD.
void append_sanitized(std::string_view in, std::string& out);
// `in` with each invalid or incomplete sequence replaced by U+FFFD (for paths, errno text and
// other bytes that end up in a message).
std::string sanitized(std::string_view in);
// True when `in` is entirely valid UTF-8.
[[nodiscard]] bool is_valid(std::string_view in);
// Number of code points in valid UTF-8 `in`.
std::size_t count_chars(std::string_view in);
// Number of code points in valid UTF-8 `in` other than ASCII blanks (space, tab, CR, LF, FF): how
// much text a page or an OCR reading holds, whatever its layout.
std::size_t count_non_blank(std::string_view in);
// Byte length of the longest prefix of valid UTF-8 `in` holding at most `max_chars` code points.
std::size_t prefix_bytes(std::string_view in, std::size_t max_chars);
// Byte length of the longest prefix of valid UTF-8 `in` within `max_bytes` bytes that does not
// end inside a sequence.
[[nodiscard]] std::size_t fit_bytes(std::string_view in, std::size_t max_bytes);

}  // namespace mcpread::readers::utf8
