// The text of a page that draws text turned off the horizontal (at an angle, or mirrored).
// poppler lays such glyphs out as they fall on the page: a word drawn at 30° is cut into pieces
// that join the upright lines they cross ("RoRotate"), a mirrored word comes out backwards one
// glyph per word ("latnoziroh rorriM"). From poppler's word boxes those runs are found again and
// their pieces joined in the order they were written. The stretch of the page that holds them
// keeps poppler's physical layout with the pieces taken out, each run then on a line of its own
// below it; the rest of the page is laid out by poppler as any page. Only pages whose content
// draws turned text come here (pdf_glyphs.cpp tells): every other page is left untouched.
#include "plugin_internal.hpp"

#include <poppler-page.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

namespace mcpread_pdf {
namespace {

// Bounds on the work of one page: runs are found by comparing boxes pairwise, and each stretch
// holding turned runs is laid out by poppler again. A page past them (a chart with thousands
// of labels, a hostile file) keeps poppler's layout as any page does.
constexpr std::size_t max_boxes = 2000;
constexpr std::size_t max_runs = 64;
constexpr std::size_t max_bands = 32;

struct Box {
  std::string text;  // UTF-8
  std::size_t units = 0;  // UTF-16 units, about the glyphs in the box
  double left = 0, top = 0, right = 0, bottom = 0;
  int rotation = 0;  // poppler's: 0 upright, 1-3 a quarter turn each
  bool space_after = false;
  bool taken = false;  // part of a turned run
  double height() const { return bottom - top; }
};

// A turned run: its text in the order written, where it stands, and the pieces poppler's layout
// shows of it (to be taken out there).
struct Run {
  double top = 0, bottom = 0, left = 0;
  std::string text;
  std::vector<std::string> pieces;
};

bool overlaps(double a0, double a1, double b0, double b1) { return std::min(a1, b1) > std::max(a0, b0); }

// B carries on from A on the same baseline, `spaced` or touching it.
bool level_after(const Box& a, const Box& b, bool spaced) {
  const double h = std::min(a.height(), b.height());
  const double gap = b.left - a.right;
  return std::abs(b.top - a.top) < 0.1 * h && std::abs(b.bottom - a.bottom) < 0.1 * h &&
         (spaced ? a.space_after && gap > 0 && gap < 0.6 * h : !a.space_after && std::abs(gap) < 0.15 * h);
}

// B touches A on the same baseline, both a single glyph: a mirrored word's glyphs, which poppler
// keeps apart, each going the wrong way. (A word's glyphs drawn forwards are one box; dot
// leaders, one glyph each, have spaces between them.)
bool continues_level(const Box& a, const Box& b) { return a.units == 1 && b.units == 1 && level_after(a, b, false); }

// The mirrored words of one line, which come apart, joined again.
void join_words(std::vector<std::vector<Box*>>& runs) {
  for (bool joined = true; joined;) {
    joined = false;
    for (std::size_t i = 0; i < runs.size() && !joined; ++i)
      for (std::size_t j = 0; j < runs.size() && !joined; ++j)
        if (i != j && level_after(*runs[i].back(), *runs[j].front(), true)) {
          runs[i].insert(runs[i].end(), runs[j].begin(), runs[j].end());
          runs.erase(runs.begin() + static_cast<std::ptrdiff_t>(j));
          joined = true;
        }
  }
}

// B carries on from A a step up or down: the pieces of a word drawn at an angle, which touch.
// (Across a space the next word's piece may as well be an upright word's.)
// Boxes of like height only, so that a superscript or subscript after its word is no such step.
bool continues_slanted(const Box& a, const Box& b) {
  const double h = std::min(a.height(), b.height());
  if (h <= 0 || h < 0.65 * std::max(a.height(), b.height())) return false;
  const double gap = b.left - a.right;
  const bool stepped = std::abs(b.top - a.top) > 0.1 * h || std::abs(b.bottom - a.bottom) > 0.1 * h;
  return stepped && overlaps(a.top, a.bottom, b.top, b.bottom) && std::abs(gap) < 0.1 * h;
}

// Chains of upright boxes, each linked to its nearest follower by `linked`; only those of
// `min_length` boxes or more. A box is in one chain at most.
template <typename Linked>
std::vector<std::vector<Box*>> chains(std::vector<Box>& boxes, Linked linked, std::size_t min_length) {
  std::vector<Box*> next(boxes.size(), nullptr);
  std::vector<bool> has_previous(boxes.size(), false);
  for (std::size_t i = 0; i < boxes.size(); ++i) {
    const Box& a = boxes[i];
    if (a.taken || a.rotation != 0) continue;
    std::size_t best = boxes.size();
    for (std::size_t j = 0; j < boxes.size(); ++j) {
      const Box& b = boxes[j];
      if (j == i || b.taken || b.rotation != 0 || has_previous[j] || !linked(a, b)) continue;
      if (best == boxes.size() || b.left < boxes[best].left) best = j;
    }
    if (best < boxes.size()) {
      next[i] = &boxes[best];
      has_previous[best] = true;
    }
  }
  std::vector<std::vector<Box*>> out;
  for (std::size_t i = 0; i < boxes.size(); ++i) {
    if (has_previous[i] || next[i] == nullptr) continue;
    std::vector<Box*> chain{&boxes[i]};
    while (chain.size() <= boxes.size() && next[static_cast<std::size_t>(chain.back() - boxes.data())])
      chain.push_back(next[static_cast<std::size_t>(chain.back() - boxes.data())]);
    if (chain.size() < min_length) continue;
    for (Box* b : chain) b->taken = true;
    out.push_back(std::move(chain));
  }
  return out;
}

Run run_of(const std::vector<Box*>& boxes, bool mirrored) {
  Run run{boxes.front()->top, boxes.front()->bottom, boxes.front()->left, {}, {}};
  std::string seen;  // a mirrored run as poppler writes it, left to right
  for (std::size_t k = 0; k < boxes.size(); ++k) {
    const Box& b = *boxes[mirrored ? boxes.size() - 1 - k : k];
    run.top = std::min(run.top, b.top);
    run.bottom = std::max(run.bottom, b.bottom);
    run.left = std::min(run.left, b.left);
    // A mirrored run's space follows, on the page, the glyph that now comes after it.
    const bool space = k + 1 < boxes.size() && (mirrored ? boxes[boxes.size() - 2 - k]->space_after : b.space_after);
    run.text += b.text + (space ? " " : "");
    if (!mirrored) run.pieces.push_back(b.text);
    seen += boxes[k]->text + (k + 1 < boxes.size() && boxes[k]->space_after ? " " : "");
  }
  if (mirrored) run.pieces.push_back(seen);
  return run;
}

// Letters in `text` (ASCII ones, and every character beyond ASCII), at most 2 counted.
int letters(const std::string& text) {
  int n = 0;
  for (std::size_t i = 0; i < text.size() && n < 2; ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') ++n;
    else if (c >= 0xC0) ++n;  // the first byte of a character beyond ASCII
  }
  return n;
}

bool is_space(char c) { return c == ' ' || c == '\n' || c == '\f'; }

// Takes `piece` out of `text`: where it stands as a word of its own, else at a word's start or
// end ("Ro" of "RoRotate"), else nowhere (a single glyph inside a word is left alone).
void take_out(std::string& text, const std::string& piece) {
  for (int want = 0; want < 2; ++want)
    for (std::size_t at = text.find(piece); at != std::string::npos; at = text.find(piece, at + 1)) {
      const bool starts = at == 0 || is_space(text[at - 1]);
      const bool ends = at + piece.size() == text.size() || is_space(text[at + piece.size()]);
      if (want == 0 ? starts && ends : (starts || ends) && piece.size() > 1) {
        text.replace(at, piece.size(), std::string(piece.size(), ' '));
        return;
      }
    }
}

// The stretches of the page, top to bottom, that hold turned runs: each run's and a margin,
// widened to every box it overlaps (and so on), so that no box straddles an edge; overlapping
// ones merged.
std::vector<std::pair<double, double>> turned_bands(const std::vector<Box>& boxes, const std::vector<Run>& runs) {
  std::vector<std::pair<double, double>> bands;
  for (const Run& run : runs) {
    // A margin: poppler places a slanted glyph by its own reckoning, not quite by its word's box.
    const double margin = 0.25 * (run.bottom - run.top);
    std::pair<double, double> band{run.top - margin, run.bottom + margin};
    for (bool grown = true; grown;) {
      grown = false;
      for (const Box& b : boxes)
        if (overlaps(band.first, band.second, b.top, b.bottom) && (b.top < band.first || b.bottom > band.second)) {
          band = {std::min(band.first, b.top), std::max(band.second, b.bottom)};
          grown = true;
        }
    }
    bands.push_back(band);
  }
  std::sort(bands.begin(), bands.end());
  std::vector<std::pair<double, double>> merged;
  for (const auto& band : bands) {
    if (!merged.empty() && band.first <= merged.back().second)
      merged.back().second = std::max(merged.back().second, band.second);
    else
      merged.push_back(band);
  }
  return merged;
}

}  // namespace

std::string turned_page_text(const poppler::page& page, int turned, bool* found) {
  *found = false;
  std::vector<Box> boxes;
  for (const poppler::text_box& t : page.text_list()) {
    const poppler::rectf r = t.bbox();
    const std::vector<char> utf8 = t.text().to_utf8();
    Box b{std::string(utf8.begin(), utf8.end()), t.text().size(), r.left(), r.top(), r.right(), r.bottom(),
          t.rotation(), t.has_space_after()};
    if (!b.text.empty()) boxes.push_back(std::move(b));
    if (boxes.size() > max_boxes) return {};
  }
  // Each kind of run only where the content draws that kind of turn: a superscript after its
  // word looks like a slanted word's second piece, and is one only on a page drawing slanted text.
  // Words only: the dots and digits of a plot's marks and ticks, drawn turned, touch by chance,
  // and poppler's layout of them is left as it is.
  std::vector<Run> runs;
  if (turned & turned_mirrored) {
    std::vector<std::vector<Box*>> mirrored = chains(boxes, continues_level, 3);
    if (mirrored.size() > max_runs) return {};
    join_words(mirrored);
    for (const auto& run : mirrored)
      if (Run r = run_of(run, true); letters(r.text) >= 2) runs.push_back(std::move(r));
  }
  if (turned & turned_slanted)
    for (const auto& run : chains(boxes, continues_slanted, 2))
      if (Run r = run_of(run, false); letters(r.text) >= 2) runs.push_back(std::move(r));
  if (runs.empty() || runs.size() > max_runs) return {};
  const std::vector<std::pair<double, double>> bands = turned_bands(boxes, runs);
  if (bands.size() > max_bands) return {};
  *found = true;
  std::string out;
  double from = 0;
  const auto layout = [&](double until) {  // poppler's physical layout of a stretch
    if (until <= from) return std::string();
    const std::vector<char> utf8 =
        page.text(poppler::rectf(0, from, 1e5, until - from), poppler::page::physical_layout).to_utf8();
    return std::string(utf8.begin(), utf8.end());
  };
  for (const auto& [top, bottom] : bands) {
    out += layout(top);
    from = top;
    std::string band = layout(bottom);
    std::vector<const Run*> inside;
    for (const Run& run : runs)
      if (run.top >= top && run.bottom <= bottom) inside.push_back(&run);
    // Left to right: the words of a line climbing or falling at an angle, in order.
    std::stable_sort(inside.begin(), inside.end(), [](const Run* a, const Run* b) { return a->left < b->left; });
    for (const Run* run : inside)
      for (const std::string& piece : run->pieces) take_out(band, piece);
    out += band + (band.empty() || band.back() == '\n' ? "" : "\n");
    for (const Run* run : inside) out += run->text + '\n';
    from = bottom;
  }
  out += layout(1e5);
  return out;
}

}  // namespace mcpread_pdf
