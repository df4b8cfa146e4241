#include "text_collector.hpp"

#include <algorithm>
#include <array>
#include <string_view>
#include <utility>

namespace mcpread_revenge {

namespace {


bool blank(std::string_view s) {
  return s.find_first_not_of(" \t\n\r") == std::string_view::npos;
}

}  // namespace

void TextCollector::push(Where where) {
  if (contexts_.size() >= kMaxDepth) {
    ++depth_overflow_;
    return;
  }
  contexts_.push_back(Context{where, {}, 0});
}

void TextCollector::pop() {
  if (depth_overflow_ > 0) {
    --depth_overflow_;
    return;
  }
  if (contexts_.size() <= 1) return;  // an unbalanced close: the body stays
  end_paragraph();
  contexts_.pop_back();
}

void TextCollector::start_paragraph(const librevenge::RVNGPropertyList* props, bool list_item) {
  if (top().paragraph.open) end_paragraph();
  Paragraph& p = top().paragraph;
  p.open = true;
  if (props != nullptr) {
    if (const librevenge::RVNGProperty* level = (*props)["text:outline-level"])
      p.heading = std::clamp(level->getInt(), 0, 6);
  }
  if (list_item) {
    p.list_item = true;
    p.heading = 0;
    p.list = list_id_;
    if (!lists_.empty()) {
      p.level = static_cast<int>(lists_.size()) - 1;
      p.ordered = lists_.back().ordered;
      p.number = lists_.back().next++;
    }
  }
}

void TextCollector::openParagraph(const librevenge::RVNGPropertyList& props) { start_paragraph(&props, false); }

void TextCollector::openListElement(const librevenge::RVNGPropertyList& props) { start_paragraph(&props, true); }

void TextCollector::text(const char* utf8) {
  if (cut_) return;
  const std::string_view s(utf8);
  text_bytes_ += s.size();
  if (text_bytes_ > kMaxTextBytes) {
    cut_ = true;
    return;
  }
  if (!top().paragraph.open) start_paragraph(nullptr, false);
  top().paragraph.text += s;
}

void TextCollector::add_block(nlohmann::json block) {
  // A block costs the server far more than its text once parsed (an object of eight members): it
  // is charged to the text budget, so that millions of one-letter paragraphs are cut as a long
  // text is, rather than sent as hundreds of megabytes of JSON.
  text_bytes_ += kBlockCost;
  if (text_bytes_ > kMaxTextBytes) {
    cut_ = true;
    return;
  }
  blocks_.push_back(std::move(block));
}

void TextCollector::end_paragraph() {
  Paragraph p = std::exchange(top().paragraph, {});
  if (!p.open) return;
  switch (top().where) {
    case Where::ignored: return;
    case Where::note:
      if (top().note < notes_.size() && !blank(p.text)) {
        std::string& note = notes_[top().note];
        if (!note.empty()) note += ' ';
        note += p.text;
      }
      return;
    case Where::cell:
      if (!tables_.empty()) {
        Table& t = tables_.back();
        if (!t.cell.empty() && !blank(p.text)) t.cell += '\n';
        t.cell += p.text;
        t.notes.insert(t.notes.end(), p.notes.begin(), p.notes.end());
        t.images.insert(t.images.end(), p.images.begin(), p.images.end());
      }
      return;
    case Where::body: break;
  }
  if (blank(p.text) && p.images.empty()) return;
  const char* type = p.list_item ? "list_item" : p.heading > 0 ? "heading" : "paragraph";
  add_block({{"type", type},
             {"level", p.list_item ? p.level : p.heading},
             {"ordered", p.ordered},
             {"number", p.number},
             {"list", std::to_string(p.list)},
             {"text", std::move(p.text)},
             {"notes", std::move(p.notes)},
             {"images", std::move(p.images)}});
}

void TextCollector::openLink(const librevenge::RVNGPropertyList& props) {
  if (!top().paragraph.open) start_paragraph(nullptr, false);
  const librevenge::RVNGProperty* href = props["xlink:href"];
  top().paragraph.links.push_back({top().paragraph.text.size(), href != nullptr ? href->getStr().cstr() : ""});
}

void TextCollector::closeLink() {
  Paragraph& p = top().paragraph;
  if (p.links.empty()) return;
  const Link link = std::move(p.links.back());
  p.links.pop_back();
  if (link.href.empty() || link.at > p.text.size() || cut_) return;
  const std::string shown = p.text.substr(link.at);
  if (blank(shown)) return;
  p.text.resize(link.at);
  p.text += "[" + shown + "](" + link.href + ")";
}

void TextCollector::openOrderedListLevel(const librevenge::RVNGPropertyList& props) {
  if (lists_.empty()) ++list_id_;
  std::size_t start = 1;
  if (const librevenge::RVNGProperty* value = props["text:start-value"]; value != nullptr && value->getInt() > 0)
    start = static_cast<std::size_t>(value->getInt());
  if (lists_.size() < kMaxDepth) lists_.push_back({true, start});
}

void TextCollector::openUnorderedListLevel(const librevenge::RVNGPropertyList&) {
  if (lists_.empty()) ++list_id_;
  if (lists_.size() < kMaxDepth) lists_.push_back({false, 1});
}

void TextCollector::close_list_level() {
  if (top().paragraph.open && top().paragraph.list_item) end_paragraph();
  if (!lists_.empty()) lists_.pop_back();
}

void TextCollector::open_note() {
  if (top().where == Where::ignored || top().where == Where::note) {
    push(Where::ignored);  // a note in a header, or in a note: its mark and text are left out
    return;
  }
  if (!top().paragraph.open) start_paragraph(nullptr, false);
  const std::size_t index = notes_.size();
  notes_.emplace_back();
  top().paragraph.text += "[^" + std::to_string(index + 1) + "]";
  top().paragraph.notes.push_back(index);
  push(Where::note);
  if (depth_overflow_ == 0) top().note = index;
}

void TextCollector::openComment(const librevenge::RVNGPropertyList&) {
  if (top().where != Where::ignored) ++comments_;
  push(Where::ignored);
}

void TextCollector::openTable(const librevenge::RVNGPropertyList&) {
  if (top().where == Where::body && top().paragraph.open) end_paragraph();
  tables_.emplace_back();
}

void TextCollector::openTableRow(const librevenge::RVNGPropertyList&) {
  if (tables_.empty()) return;
  tables_.back().row.clear();
  tables_.back().in_row = true;
}

void TextCollector::openTableCell(const librevenge::RVNGPropertyList&) {
  if (tables_.empty()) return;
  tables_.back().cell.clear();
  push(top().where == Where::ignored ? Where::ignored : Where::cell);
}

void TextCollector::closeTableCell() {
  if (tables_.empty()) return;
  pop();
  Table& t = tables_.back();
  if (++cells_ > kMaxCells) cut_ = true;
  if (!cut_) t.row.push_back(std::exchange(t.cell, {}));
}

void TextCollector::insertCoveredTableCell(const librevenge::RVNGPropertyList&) {
  if (!tables_.empty() && !cut_) tables_.back().row.emplace_back();
}

void TextCollector::closeTableRow() {
  if (tables_.empty()) return;
  Table& t = tables_.back();
  if (std::any_of(t.row.begin(), t.row.end(), [](const std::string& c) { return !blank(c); }))
    t.rows.push_back(std::move(t.row));
  t.row.clear();
  t.in_row = false;
}

void TextCollector::closeTable() {
  if (tables_.empty()) return;
  if (tables_.back().in_row) closeTableRow();
  Table t = std::move(tables_.back());
  tables_.pop_back();
  if (t.rows.empty()) return;
  if (top().where == Where::body) {
    add_block({{"type", "table"}, {"rows", std::move(t.rows)}, {"notes", std::move(t.notes)},
               {"images", std::move(t.images)}});
    return;
  }
  // A table inside a cell or a note: its rows become lines of the text around it.
  for (const auto& row : t.rows) {
    std::string line;
    for (const auto& c : row) line += (line.empty() ? "" : " | ") + c;
    text(("\n" + line).c_str());
  }
}

void TextCollector::insertBinaryObject(const librevenge::RVNGPropertyList& props) {
  if (top().where == Where::ignored) return;
  const auto index = pictures_.take(props);
  if (!index) return;
  if (!top().paragraph.open) start_paragraph(nullptr, false);
  top().paragraph.images.push_back(*index);
}

void TextCollector::endDocument() {
  while (contexts_.size() > 1 || depth_overflow_ > 0) pop();
  end_paragraph();
  while (!tables_.empty()) closeTable();
}

nlohmann::json TextCollector::result() const {
  return {{"blocks", blocks_},           {"notes", notes_},       {"images", pictures_.images()},
          {"pictures_not_shown", pictures_.not_shown()}, {"comments", comments_}, {"text_cut", cut_}};
}

}  // namespace mcpread_revenge
