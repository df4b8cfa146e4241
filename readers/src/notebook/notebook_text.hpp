#pragma once
// Text clean-up for the notebook reader: terminal escapes, long outputs cut in the middle,
// embedded base64 removed (HTML is html_text.hpp's). Internal to the readers library; exposed
// for tests.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace mcpread::readers::notebook_text {

// Terminal output as a reader of the final screen sees it: ANSI/VT escape sequences removed (CSI
// "\x1b[...m" and friends, OSC "\x1b]...\x07", two- and three-byte escapes), "\r\n" read as
// "\n", a lone "\r" overwriting its line (progress bars keep their last state), and other
// control characters but "\n" and "\t" dropped.
std::string clean_terminal(std::string_view in);

// Replaces the payload of data: URIs carrying base64 ("data:image/png;base64,iVBOR...") by
// "[… N base64 characters omitted …]" when the payload is 64 characters or longer.
std::string scrub_data_uris(std::string_view in);

// Lenient standard/URL-safe base64: whitespace skipped, padding optional. nullopt when another
// character appears.
std::optional<std::string> base64_decode(std::string_view in);

// Where to cut `s` so that about `head` bytes of its start and the bytes from `tail_begin` on are
// kept: both positions on code-point boundaries, moved to a line boundary when one is near.
struct Cut {
  std::size_t head_end = 0;
  std::size_t tail_begin = 0;
};
Cut middle_cut(std::string_view s, std::size_t head, std::size_t tail_begin);

// `text` (valid UTF-8) when it holds at most `max_chars` code points (0: no limit); otherwise its
// first and last parts, half of `max_chars` each, around the line
// "[… N characters of this output omitted …]". *trimmed tells whether it was cut.
std::string trim_output(std::string_view text, std::size_t max_chars, bool* trimmed);

// A backtick fence longer than any backtick run in `body` (at least ```).
std::string fence_for(std::string_view body);

}  // namespace mcpread::readers::notebook_text
