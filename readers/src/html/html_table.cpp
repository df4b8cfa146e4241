#include "html_dom.hpp"

#include <cstdlib>
#include <utility>
#include <vector>

namespace mcpread::readers::html_text::dom {
namespace {

unsigned span_of(const xmlNode* cell, const char* attribute, unsigned max) {
  for (const xmlAttr* a = cell->properties; a != nullptr; a = a->next) {
    if (a->name == nullptr || std::string_view(reinterpret_cast<const char*>(a->name)) != attribute) continue;
    if (a->children == nullptr || a->children->content == nullptr) return 1;
    const long v = std::strtol(reinterpret_cast<const char*>(a->children->content), nullptr, 10);
    return v < 1 ? 1u : static_cast<unsigned>(std::min<long>(v, max));
  }
  return 1;
}

constexpr std::size_t kMaxCells = 100000;  // a table's cells beyond this are not laid out

struct Cell {
  std::string text;
  unsigned colspan = 1;
  unsigned rowspan = 1;
  bool header = false;
};
struct Row {
  std::vector<Cell> cells;
  bool head = false;  // in <thead>
};

void add_row(xmlNode* tr, bool head, std::vector<Row>& rows) {
  Row row;
  row.head = head;
  for (xmlNode* c = tr->children; c != nullptr; c = c->next) {
    if (!is_element(c, "td") && !is_element(c, "th")) continue;
    std::string text = inline_text(c);
    for (std::size_t p = 0; (p = text.find('|', p)) != std::string::npos; p += 2) text.insert(p, 1, '\\');
    row.cells.push_back(Cell{std::move(text), span_of(c, "colspan", 1000), span_of(c, "rowspan", 65534),
                             name_of(c) == "th"});
  }
  rows.push_back(std::move(row));
}

std::string table_line(const std::vector<std::string>& cells, std::size_t width) {
  std::string line = "|";
  for (std::size_t j = 0; j < width; ++j) {
    const std::string& c = j < cells.size() ? cells[j] : std::string();
    line += c.empty() ? " |" : " " + c + " |";
  }
  return line + "\n";
}

}  // namespace

std::string inline_text(xmlNode* node) {
  std::string out;
  bool space = false;
  walk(
      node,
      [&](xmlNode* n) {
        if (n->type == XML_TEXT_NODE || n->type == XML_CDATA_SECTION_NODE) append_collapsed(content_of(n), out, space);
        if (n->type != XML_ELEMENT_NODE) return false;
        if (name_of(n) == "br") space = true;
        return n == node || !one_of(name_of(n), kSkipped);
      },
      [&](xmlNode* n) {
        if (n != node && !one_of(name_of(n), kInline)) space = true;  // blocks, nested cells: words apart
      });
  return out;
}

bool render_table(xmlNode* table, std::string& out) {
  std::vector<Row> rows;
  std::string caption;
  for (xmlNode* c = table->children; c != nullptr; c = c->next) {
    if (is_element(c, "tr")) add_row(c, false, rows);
    if (is_element(c, "caption")) caption = inline_text(c);
    if (is_element(c, "thead") || is_element(c, "tbody") || is_element(c, "tfoot"))
      for (xmlNode* r = c->children; r != nullptr; r = r->next)
        if (is_element(r, "tr")) add_row(r, name_of(c) == "thead", rows);
  }
  // Lay the cells out on a grid, spans repeated: a model reading a row then sees every value.
  std::vector<std::vector<std::string>> grid;
  std::vector<std::pair<unsigned, std::string>> carried;  // per column: rows left, text
  std::size_t width = 0, cells = 0;
  bool cut = false;
  for (const Row& row : rows) {
    std::vector<std::string> line;
    std::size_t col = 0;
    const auto take_carried = [&] {
      while (col < carried.size() && carried[col].first > 0) {
        line.push_back(carried[col].second);
        --carried[col++].first;
      }
    };
    for (const Cell& cell : row.cells) {
      take_carried();
      for (unsigned k = 0; k < cell.colspan; ++k, ++col) {
        line.push_back(cell.text);
        if (cell.rowspan > 1) {
          if (carried.size() <= col) carried.resize(col + 1);
          carried[col] = {cell.rowspan - 1, cell.text};
        }
      }
    }
    for (; col < carried.size(); ++col) {
      line.push_back(carried[col].first > 0 ? carried[col].second : std::string());
      if (carried[col].first > 0) --carried[col].first;
    }
    cells += line.size();
    if (cells > kMaxCells) {
      cut = true;
      break;
    }
    width = std::max(width, line.size());
    grid.push_back(std::move(line));
  }
  if (width == 0) return false;

  // The header: the <thead> rows, or a first row of <th> only, merged per column.
  std::size_t head_rows = 0;
  while (head_rows < rows.size() && head_rows < grid.size() && rows[head_rows].head) ++head_rows;
  if (head_rows == 0 && !rows.empty() && !rows[0].cells.empty() &&
      std::all_of(rows[0].cells.begin(), rows[0].cells.end(), [](const Cell& c) { return c.header; }))
    head_rows = 1;
  std::vector<std::string> header(width);
  for (std::size_t j = 0; j < width; ++j) {
    std::string last;
    for (std::size_t i = 0; i < head_rows; ++i) {
      const std::string& t = j < grid[i].size() ? grid[i][j] : std::string();
      if (t.empty() || t == last) continue;
      header[j] += (header[j].empty() ? "" : " ") + t;
      last = t;
    }
  }
  if (!caption.empty()) out += caption + "\n\n";
  out += table_line(header, width);
  out += "|";
  for (std::size_t j = 0; j < width; ++j) out += " --- |";
  out += "\n";
  for (std::size_t i = head_rows; i < grid.size(); ++i) out += table_line(grid[i], width);
  if (cut) out += "[The table has more than " + std::to_string(kMaxCells) + " cells; the rest are not shown.]\n";
  out += "\n";
  return true;
}

}  // namespace mcpread::readers::html_text::dom
