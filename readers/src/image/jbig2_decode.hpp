#pragma once
// JBIG2 files (the bilevel format of scanners and archives, ITU T.88 with its file header),
// decoded by jbig2dec (Debian package libjbig2dec0, opened with dlopen on first use) into a binary
// PBM, which libvips then sizes and encodes like any other image. libvips reads no JBIG2 itself.
// Internal to the image reader.
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>

namespace mcpread::readers::jbig2 {

// The JBIG2 file header's ID string (T.88 D.4.1).
inline constexpr std::string_view kSignature{"\x97JB2\r\n\x1A\n", 8};

inline bool is_jbig2(std::string_view bytes) { return bytes.starts_with(kSignature); }

struct Page {
  std::string pbm;  // "P4" PBM: black is 1, as in JBIG2
  std::uint32_t width = 0;
  std::uint32_t height = 0;
  unsigned pages = 0;  // pages in the file; `pbm` is the first
};

// Why a file gave no page: `missing_library` when jbig2dec cannot be loaded (its message says
// what to install), `too_large` when the page would pass `max_pixels`, `corrupt` otherwise.
struct Failure {
  enum Kind { missing_library, too_large, corrupt } kind;
  std::string message;  // a clause: "jbig2dec reports: ..."
};

// The first page of a JBIG2 file. Decoding stops once jbig2dec has asked for more memory than a
// page of `max_pixels` needs (a bound on what a hostile file can make it allocate).
std::variant<Page, Failure> first_page(std::string_view bytes, std::uint64_t max_pixels);

}  // namespace mcpread::readers::jbig2
