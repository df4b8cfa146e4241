// Why these measures: a page of text, scanned or rendered, is a background (paper, a slide's
// fill) covering most of it, with ink in one or two tones; a photograph spreads its pixels over
// many tones with no one tone dominant. Measured on pictures shrunk to about 512 px on their
// long edge (each pixel the mean of a block, so a scan's noise and a JPEG's ringing average
// out), with the tones in 16 bins of 16 levels:
//   rendered and scanned text pages, diagrams, plots: 90 % of the pixels in 1-3 bins, 81-99 %
//     of them within 24 levels of the background;
//   screenshots of programs (menus, dialogs): 4-7 bins, 76-85 % near the background;
//   photographs (flowers, landscapes, an aircraft, an owl, a sunset): 8-13 bins, 19-54 % near
//     the background; a clip-art wizard or a rose on white has a white background (73-77 %)
//     and goes to Tesseract, as does anything between.
// A photograph that is mostly one tone (a tabletop in shadow) passes the tone test; what gives
// it away is that nothing in it is sharp: see shaded() below.
#include "picture_look.hpp"

#include <algorithm>
#include <bit>
#include <cstdlib>
#include <cstdint>
#include <vector>

namespace mcpread::readers::ocr {
namespace {

// The long edge of the shrunk picture the photograph test measures.
constexpr int look_edge = 512;
// A photograph: 90 % of the pixels need at least this many of the 16 tone bins...
constexpr int photo_min_bins = 8;
// ... and under this share of them lies within 24 levels of the commonest tone.
constexpr double photo_max_background = 0.6;

// Leptonica keeps pixels in native 32-bit words, the first pixel in the most significant byte:
// on a little-endian machine pixel x is byte x ^ 3 (the row's padding bytes are not pixels).
constexpr int swap = std::endian::native == std::endian::little ? 3 : 0;

// The shrunk picture: each cell the mean tone of a block of pixels.
struct Cells {
  int w = 0, h = 0;
  std::vector<std::uint8_t> tone;
  int at(int x, int y) const { return tone[static_cast<std::size_t>(y) * static_cast<std::size_t>(w) + static_cast<std::size_t>(x)]; }
};

Cells shrink(const unsigned char* data, int w, int h, int wpl) {
  const int block = std::max(1, (std::max(w, h) + look_edge - 1) / look_edge);
  Cells c;
  c.w = w / block;
  c.h = h / block;
  c.tone.reserve(static_cast<std::size_t>(c.w) * static_cast<std::size_t>(c.h));
  std::vector<std::uint32_t> sums(static_cast<std::size_t>(c.w));
  for (int cy = 0; cy < c.h; ++cy) {
    std::fill(sums.begin(), sums.end(), 0);
    for (int y = cy * block; y < (cy + 1) * block; ++y) {
      const unsigned char* row = data + static_cast<std::ptrdiff_t>(y) * wpl * 4;
      for (int x = 0; x < c.w * block; ++x) sums[static_cast<std::size_t>(x / block)] += row[x ^ swap];
    }
    for (const std::uint32_t sum : sums) c.tone.push_back(static_cast<std::uint8_t>(sum / static_cast<std::uint32_t>(block * block)));
  }
  return c;
}

// Soft shading and nothing sharp: most cells away from the commonest tone lie in broad, smooth
// areas (a tabletop in shadow, an out-of-focus background, a gradient). Text has strokes: on
// the same shrunk pages 46-97 % of the cells away from the background touch a neighbour 16 or
// more levels apart, and 0.4 % or more of all cells sit on a jump of 48 levels; on a photograph
// of a wooden table in shadow (95 % of it within 24 levels of one brown, so the tone measure
// above takes it for a page), 6 % and 0.04 %. Solid fills (a black bar, a chart's sectors) are
// far from the background, with sharp borders, and stay with Tesseract.
bool shaded(const Cells& c, int background) {
  std::uint64_t away = 0, far = 0, away_at_edge = 0, jumps = 0;
  for (int y = 0; y < c.h; ++y)
    for (int x = 0; x < c.w; ++x) {
      const int v = c.at(x, y), off = std::abs(v - background);
      int step = 0;
      if (x > 0) {
        const int left = std::abs(v - c.at(x - 1, y));
        step = left;
        if (left > 48) ++jumps;
      }
      if (y > 0) step = std::max(step, std::abs(v - c.at(x, y - 1)));
      if (off <= 24) continue;
      ++away;
      if (off > 96) ++far;
      if (step > 16) ++away_at_edge;
    }
  const auto cells = static_cast<std::uint64_t>(c.w) * static_cast<std::uint64_t>(c.h);
  return away * 50 >= cells              // 2 % or more of the picture is shaded...
         && away_at_edge * 5 < away      // ... under 20 % of it at an edge,
         && jumps * 1000 < cells         // sharp jumps under 0.1 % of the cells,
         && far * 2 < away;              // and mostly half-tones, not solid ink.
}

bool photograph(const unsigned char* data, int w, int h, int wpl) {
  const Cells c = shrink(data, w, h, wpl);
  if (c.tone.empty()) return false;
  std::uint64_t histogram[256] = {};
  for (const std::uint8_t v : c.tone) ++histogram[v];
  const std::uint64_t cells = c.tone.size();
  // The background: the tone with the most pixels within 8 levels of it.
  int background = 0;
  std::uint64_t best = 0;
  for (int v = 0; v < 256; ++v) {
    std::uint64_t around = 0;
    for (int u = std::max(0, v - 8); u <= std::min(255, v + 8); ++u) around += histogram[u];
    if (around > best) {
      best = around;
      background = v;
    }
  }
  std::uint64_t near = 0;
  for (int v = std::max(0, background - 24); v <= std::min(255, background + 24); ++v) near += histogram[v];
  std::uint64_t bins[16] = {};
  for (int v = 0; v < 256; ++v) bins[v / 16] += histogram[v];
  std::sort(std::begin(bins), std::end(bins), std::greater<>());
  int needed = 0;
  for (std::uint64_t covered = 0; covered * 10 < cells * 9; ++needed) covered += bins[needed];
  if (needed >= photo_min_bins && static_cast<double>(near) < photo_max_background * static_cast<double>(cells)) return true;
  return shaded(c, background);
}

}  // namespace

// Blank: one flat colour, give or take a speck: no ink worth a Tesseract run (which takes as
// long on a white page as on a full one to find nothing). Textured: a quarter or more of the
// pixels differ sharply from their right-hand neighbour (noise, grain), where Tesseract spends
// seconds finding no text; a page of text has such edges only along its strokes (a few %).
Look look_of(const Api& a, ::Pix* pix) {
  Pix grey(&a, a.pix_convert_to8(pix, 0));
  if (!grey) return Look::inked;
  const int w = a.pix_get_width(grey.get()), h = a.pix_get_height(grey.get()), wpl = a.pix_get_wpl(grey.get());
  const auto* data = reinterpret_cast<const unsigned char*>(a.pix_get_data(grey.get()));
  std::uint64_t histogram[256] = {};
  std::uint64_t edges = 0;
  for (int y = 0; y < h; ++y) {
    const unsigned char* row = data + static_cast<std::ptrdiff_t>(y) * wpl * 4;
    int left = row[0 ^ swap];
    for (int x = 0; x < w; ++x) {
      const int v = row[x ^ swap];
      ++histogram[v];
      if (v - left > 64 || left - v > 64) ++edges;
      left = v;
    }
  }
  int background = 0;
  for (int v = 1; v < 256; ++v)
    if (histogram[v] > histogram[background]) background = v;
  std::uint64_t ink = 0;
  for (int v = 0; v < 256; ++v)
    if (v < background - 48 || v > background + 48) ink += histogram[v];
  const auto total = static_cast<std::uint64_t>(w) * static_cast<std::uint64_t>(h);
  if (ink * 20000 < total) return Look::blank;  // under 0.005 %: a speck of dust, not a full stop
  if (edges * 4 > total) return Look::textured;
  if (photograph(data, w, h, wpl)) return Look::photograph;
  return Look::inked;
}

}  // namespace mcpread::readers::ocr
