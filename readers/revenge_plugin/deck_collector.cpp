#include "deck_collector.hpp"

#include "text_collector.hpp"  // the text and image budgets, the same for every kind

#include <algorithm>
#include <array>
#include <string_view>
#include <utility>

namespace mcpread_revenge {

namespace {


bool blank(std::string_view s) { return s.find_first_not_of(" \t\n\r") == std::string_view::npos; }

void append(std::string& to, std::string_view what, std::string_view separator) {
  if (!to.empty()) to += separator;
  to += what;
}

}  // namespace

bool DeckCollector::charge(std::size_t bytes) {
  text_bytes_ += bytes;
  if (text_bytes_ > kMaxTextBytes) cut_ = true;
  return !cut_;
}

void DeckCollector::leave_ignored() {
  if (ignored_ > 0) --ignored_;
}

void DeckCollector::start_page(const librevenge::RVNGPropertyList& props) {
  end_page();
  if (pages_.size() >= kMaxPages) {
    cut_ = true;
    return;
  }
  Page p;
  if (const librevenge::RVNGProperty* name = props["draw:name"]) p.name = name->getStr().cstr();
  if (!charge(p.name.size())) return;
  pages_.push_back(std::move(p));
  in_page_ = true;
}

void DeckCollector::end_page() {
  if (in_page_) end_block();
  in_page_ = false;
  notes_ = 0;
  lists_.clear();
}

DeckCollector::Page& DeckCollector::page() {
  // Text before any page (an importer that opens none): a page of its own.
  if (!in_page_ || pages_.empty()) {
    pages_.emplace_back();
    in_page_ = true;
  }
  return pages_.back();
}

std::string& DeckCollector::target() { return notes_ > 0 ? page().notes : page().text; }

void DeckCollector::text(const char* utf8) {
  if (!keeps()) return;
  const std::string_view s(utf8);
  if (charge(s.size())) paragraph_ += s;
}

void DeckCollector::end_paragraph() {
  std::string p = std::exchange(paragraph_, {});
  std::string prefix = std::exchange(item_prefix_, {});
  if (blank(p)) return;
  if (in_cell_) append(cell_, p, " ");
  else append(block_, prefix + p, "\n");
}

void DeckCollector::end_block() {
  end_paragraph();
  std::string b = std::exchange(block_, {});
  if (blank(b) || !keeps()) return;
  // A slide's notes read as one text; a page's text objects stand apart.
  append(target(), b, notes_ > 0 ? "\n" : "\n\n");
}

void DeckCollector::openListElement(const librevenge::RVNGPropertyList&) {
  end_paragraph();
  const std::size_t depth = lists_.empty() ? 0 : lists_.size() - 1;
  item_prefix_ = std::string(2 * std::min<std::size_t>(depth, 8), ' ');
  if (lists_.empty() || !lists_.back().ordered) item_prefix_ += "- ";
  else item_prefix_ += std::to_string(lists_.back().next++) + ". ";
}

void DeckCollector::close_list_level() {
  end_paragraph();
  if (!lists_.empty()) lists_.pop_back();
}

void DeckCollector::closeTableCell() {
  end_paragraph();
  in_cell_ = false;
  if (keeps()) row_.push_back(std::move(cell_));  // its text was charged as it came
  cell_.clear();
}

void DeckCollector::closeTableRow() {
  if (std::all_of(row_.begin(), row_.end(), [](const std::string& c) { return blank(c); })) return row_.clear();
  std::string line;
  for (const std::string& cell : row_) append(line, cell, " | ");
  row_.clear();
  append(block_, line, "\n");
}

void DeckCollector::startNotes(const librevenge::RVNGPropertyList&) {
  end_block();
  ++notes_;
}

void DeckCollector::endNotes() {
  end_block();
  if (notes_ > 0) --notes_;
}

void DeckCollector::drawGraphicObject(const librevenge::RVNGPropertyList& props) {
  if (!keeps()) return;
  const auto index = pictures_.take(props);
  if (!index) return;
  end_block();
  Page& p = page();
  p.images.push_back(*index);
  // Numbered through the deck, as the PPTX reader numbers a deck's pictures.
  append(p.text, "[Image " + std::to_string(*index + 1) + "]", "\n\n");
}

nlohmann::json DeckCollector::result() const {
  nlohmann::json pages = nlohmann::json::array();
  for (const Page& p : pages_)
    pages.push_back({{"name", p.name}, {"text", p.text}, {"notes", p.notes}, {"images", p.images}});
  return {{"unit", slides_ ? "slide" : "page"}, {"pages", std::move(pages)}, {"images", pictures_.images()},
          {"pictures_not_shown", pictures_.not_shown()}, {"text_cut", cut_}};
}

}  // namespace mcpread_revenge
