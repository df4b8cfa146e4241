#include "office/document.hpp"

#include "markdown_text.hpp"

#include <algorithm>

namespace mcpread::readers::office {

std::string squeeze(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  bool space = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    // Line breaks inside a paragraph are kept; other whitespace (tabs too) becomes one space.
    if (c == '\n') {
      while (!out.empty() && out.back() == ' ') out.pop_back();
      if (!out.empty()) out += '\n';
      space = false;
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
      space = true;
      continue;
    }
    if (space && !out.empty() && out.back() != '\n') out += ' ';
    space = false;
    out += c;
  }
  while (!out.empty() && (out.back() == ' ' || out.back() == '\n')) out.pop_back();
  return out;
}

std::string table_cell(std::string_view text) {
  std::string out;
  for (char c : squeeze(text)) {
    if (c == '|') out += "\\|";
    else if (c == '\n') out += "<br>";
    else out += c;
  }
  return out;
}

std::string render_block(const DocBlock& b) {
  switch (b.type) {
    case DocBlock::Type::heading:
      return std::string(static_cast<std::size_t>(std::clamp(b.level, 1, 6)), '#') + " " + b.text;
    case DocBlock::Type::list_item: {
      std::string out(static_cast<std::size_t>(std::clamp(b.level, 0, 8)) * 2, ' ');
      out += b.ordered ? std::to_string(b.number) + ". " : "- ";
      // Continuation lines of the item are indented under its text; a number typed at a line's
      // start is escaped, told from the list's own.
      const std::string indent(out.size(), ' ');
      for (char c : escape_list_numbers(b.text)) {
        out += c;
        if (c == '\n') out += indent;
      }
      return out;
    }
    case DocBlock::Type::table: {
      std::size_t columns = 0;
      for (const auto& row : b.rows) columns = std::max(columns, row.size());
      if (columns == 0) return {};
      std::string out;
      auto line = [&](const std::vector<std::string>* row) {
        out += '|';
        for (std::size_t c = 0; c < columns; ++c) {
          const bool has = row != nullptr && c < row->size() && !(*row)[c].empty();
          out += has ? " " + table_cell((*row)[c]) + " |" : " |";
        }
        out += '\n';
      };
      line(&b.rows.front());
      out += '|';
      for (std::size_t c = 0; c < columns; ++c) out += " --- |";
      out += '\n';
      for (std::size_t r = 1; r < b.rows.size(); ++r) line(&b.rows[r]);
      out.pop_back();
      return out;
    }
    case DocBlock::Type::paragraph:
      break;
  }
  // A paragraph's "1. " typed at a line's start would read as a numbered list's: escaped.
  return escape_list_numbers(b.text);
}

bool take_paragraph(Inline& in, DocBlock* block) {
  block->text = squeeze(in.text);
  if (block->text.empty() && in.images.empty()) return false;
  block->notes = std::move(in.notes);
  block->images = std::move(in.images);
  return true;
}

void add_block(Document& doc, DocBlock block) {
  if (block.type == DocBlock::Type::table) doc.tables += 1;
  doc.images += block.images.size();
  doc.blocks.push_back(std::move(block));
}

}  // namespace mcpread::readers::office
