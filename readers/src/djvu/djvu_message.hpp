#pragma once
// What the child running djvulibre sends back (djvu_worker.cpp), as bytes the server checks
// before it uses them: every count against the bytes left, every page against the pages asked
// for, every image against the size it was drawn at, no byte left over. A child that went wrong
// in a way that did not kill it sends what decode() refuses. Internal to the DjVu reader.
#include "djvu/djvu_worker.hpp"

#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace mcpread::readers::djvu {

// Most pages a document may say it has (djvulibre's own directories hold fewer).
inline constexpr std::uint32_t kMaxPages = 1u << 20;
// Most pixels a page may say it has on a side (DjVu stores sizes in 16 bits).
inline constexpr std::uint32_t kMaxEdge = 65535;

// A survey, or why there is none (`why` not empty: the rest unused).
std::string encode_survey(const Survey& survey, const std::string& why);
// Fills *survey or *why from the child's message; false when the message is no survey: a page
// count of 0 or over kMaxPages, a page not among `select(pages)` or in `known` or twice, a size
// over kMaxEdge, a count past the bytes left, bytes after the end.
bool decode_survey(std::string_view message, const std::function<std::vector<int>(int)>& select,
                   const std::set<int>& known, Survey* survey, std::string* why);

std::string encode_renderings(const std::vector<Rendering>& renderings, const std::string& why);
// Fills *out (one per drawing, in order) or *why; false when the message is not that: a count
// other than the drawings', an image that is not a P6 PPM of its drawing's size, bytes left over.
bool decode_renderings(std::string_view message, const std::vector<Drawing>& drawings, std::vector<Rendering>* out,
                       std::string* why);

// The header render_ppm() gives a width x height image.
std::string ppm_header(int width, int height);

}  // namespace mcpread::readers::djvu
