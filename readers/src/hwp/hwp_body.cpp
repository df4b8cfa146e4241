#include "hwp/hwp_body.hpp"

#include "utf8_internal.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <utility>
#include <vector>

namespace mcpread::readers::hwp {

namespace {

std::uint32_t u32(std::string_view b, std::size_t at) {
  std::uint32_t v = 0;
  for (std::size_t i = 0; i < 4; ++i) v |= static_cast<std::uint32_t>(static_cast<unsigned char>(b[at + i])) << (8 * i);
  return v;
}

std::uint16_t u16(std::string_view b, std::size_t at) {
  return static_cast<std::uint16_t>(static_cast<unsigned char>(b[at]) | (static_cast<unsigned char>(b[at + 1]) << 8));
}

// A control's id is four characters stored as a little-endian number: "tbl " reads " lbt".
constexpr std::uint32_t kCtrlTable = (std::uint32_t{'t'} << 24) | (std::uint32_t{'b'} << 16) |
                                     (std::uint32_t{'l'} << 8) | std::uint32_t{' '};

// PARA_TEXT's UTF-16LE as UTF-8. Codes below 32 are controls: 0, 10 (a line break), 13 (the
// paragraph's end) and 24-31 take one unit; the others (fields, pictures, tables, notes, tabs)
// take eight, their id and parameters, and are skipped (a tab becomes a space).
std::string paragraph_text(std::string_view body) {
  std::string out;
  utf8::detail::Utf16Units units;
  for (std::size_t at = 0; at + 2 <= body.size();) {
    const char16_t c = u16(body, at);
    if (c >= 32) {
      units.add(c, out);
      at += 2;
      continue;
    }
    units.finish(out);
    const bool one_unit = c == 0 || c == 10 || c == 13 || c >= 24;
    if (c == 10) out += '\n';
    else if (c == 9) out += '\t';
    else if (c == 24) out += '-';                 // a hyphen
    else if (c == 30 || c == 31) out += ' ';      // a non-breaking or fixed-width space
    at += one_unit ? 2 : 16;
  }
  units.finish(out);
  return out;
}

struct Cell {
  std::size_t row = 0, column = 0;
  std::string text;     // its finished paragraphs, one a line
  std::string pending;  // the paragraph being read
};

struct Table {
  std::size_t level = 0;  // its CTRL_HEADER's: its records are deeper
  std::size_t rows = 0, columns = 0;
  std::vector<Cell> cells;
};

class SectionReader {
 public:
  explicit SectionReader(Body* body) : body_(body), doc_(&body->doc) {}

  void record(unsigned tag, std::size_t level, std::string_view body) {
    while (!tables_.empty() && tables_.back().level >= level) close_table();
    switch (tag) {
      case kTagParaHeader:  // a paragraph starts: the one before it is done
        flush(pending());
        break;
      case kTagParaText:
        *pending() += paragraph_text(body);
        break;
      case kTagCtrlHeader:
        if (body.size() >= 4 && u32(body, 0) == kCtrlTable && tables_.size() < kMaxDepth) {
          flush(pending());
          tables_.emplace_back().level = level;
        }
        break;
      case kTagTable:
        if (own(level) && body.size() >= 8) {
          tables_.back().rows = u16(body, 4);
          tables_.back().columns = u16(body, 6);
        }
        break;
      case kTagListHeader:
        if (own(level) && tables_.back().cells.size() < office::kMaxTableCells) {
          Table& t = tables_.back();
          if (!t.cells.empty()) flush(&t.cells.back().pending);
          Cell cell;
          // The cell's address follows the list's paragraph count and flags.
          if (body.size() >= 12) {
            cell.column = u16(body, 8);
            cell.row = u16(body, 10);
          }
          t.cells.push_back(std::move(cell));
        }
        break;
      default:
        break;
    }
  }

  void finish() {
    while (!tables_.empty()) close_table();
    flush(&doc_pending_);
  }

 private:
  // A cell's record or paragraph of the innermost table: one level below its control.
  bool own(std::size_t level) const { return !tables_.empty() && tables_.back().level + 1 == level; }

  // The paragraph being read: in the innermost table's last cell, else in the body (a table
  // without cells yet leaves its text to what holds it).
  std::string* pending() {
    for (auto t = tables_.rbegin(); t != tables_.rend(); ++t)
      if (!t->cells.empty()) return &t->cells.back().pending;
    return &doc_pending_;
  }

  // Where `pending` lives decides where its finished paragraph goes.
  void flush(std::string* pending) {
    std::string text = office::squeeze(*pending);
    pending->clear();
    if (text.empty()) return;
    if (pending == &doc_pending_) {
      office::DocBlock block;
      block.text = std::move(text);
      office::add_block(*doc_, std::move(block));
      return;
    }
    // Only a table's last cell is still being read: the others' paragraphs are done.
    for (Table& t : tables_)
      if (!t.cells.empty() && &t.cells.back().pending == pending) {
        Cell& c = t.cells.back();
        c.text += (c.text.empty() ? "" : "\n") + text;
      }
  }

  void close_table() {
    if (!tables_.back().cells.empty()) flush(&tables_.back().cells.back().pending);
    Table table = std::move(tables_.back());
    tables_.pop_back();
    std::size_t rows = table.rows, columns = table.columns;
    bool any_text = false;
    for (const Cell& c : table.cells) {
      rows = std::max(rows, c.row + 1);
      columns = std::max(columns, c.column + 1);
      any_text = any_text || !c.text.empty();
    }
    if (!any_text) return;
    std::string* holder = pending();
    if (holder != &doc_pending_ || rows * columns > kMaxTableGrid ||
        rows * columns > kMaxGridSlots - body_->grid_slots) {
      // A table inside a cell (or too big a grid) becomes text: its cells one a line.
      flush(holder);
      for (const Cell& c : table.cells)
        if (!c.text.empty()) *holder += c.text + "\n";
      flush(holder);
      return;
    }
    body_->grid_slots += rows * columns;
    office::DocBlock block;
    block.type = office::DocBlock::Type::table;
    block.rows.assign(rows, std::vector<std::string>(columns));
    for (Cell& c : table.cells) {
      std::string& slot = block.rows[c.row][c.column];
      slot += (slot.empty() || c.text.empty() ? "" : "\n") + c.text;
    }
    office::add_block(*doc_, std::move(block));
  }

  Body* body_;
  office::Document* doc_;
  std::string doc_pending_;
  std::vector<Table> tables_;
};

}  // namespace

bool read_section(std::string_view records, Body* body, std::string* error) {
  SectionReader reader(body);
  bool whole = true;
  for (std::size_t at = 0; at < records.size();) {
    if (body->doc.blocks.size() >= kMaxBlocks) {
      body->cut = true;
      break;
    }
    if (records.size() - at < 4) {
      whole = false;
      break;
    }
    const std::uint32_t header = u32(records, at);
    at += 4;
    std::size_t size = header >> 20;
    if (size == 0xFFF) {  // a longer record: its size follows
      if (records.size() - at < 4) {
        whole = false;
        break;
      }
      size = u32(records, at);
      at += 4;
    }
    if (size > records.size() - at) {
      whole = false;
      break;
    }
    reader.record(header & 0x3FF, (header >> 10) & 0x3FF, records.substr(at, size));
    at += size;
  }
  reader.finish();
  if (!whole) *error = "a record runs past the end of its section";
  return whole;
}

}  // namespace mcpread::readers::hwp
