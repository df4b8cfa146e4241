#include "doc/doc_builder.hpp"

#if !defined(_WIN32)
#include <algorithm>
#include <utility>

namespace mcpread::readers::doc {

namespace {

constexpr std::size_t kMaxFieldDepth = 32;
constexpr std::size_t kMaxFieldCode = 2048;
constexpr unsigned kBulletFormat = 23;  // LVLF.nfc of a bulleted level
constexpr unsigned kNoNumber = 255;

// The Windows code page of 8-bit text in a Word 6 or 95 document, by its language id (Word 97
// keeps its 8-bit text in code page 1252 whatever the language).
int codepage_of_language(unsigned lid) {
  switch (lid & 0xff) {
    case 0x01: return 1256;                                              // Arabic
    case 0x02: case 0x19: case 0x22: case 0x23: case 0x2f: return 1251;  // Cyrillic
    case 0x04: return lid == 0x0804 || lid == 0x1004 ? 936 : 950;        // Chinese
    case 0x05: case 0x0e: case 0x15: case 0x18: case 0x1a: case 0x1b: case 0x1c: case 0x24:
      return 1250;                                                       // Central European
    case 0x08: return 1253;                                              // Greek
    case 0x0d: return 1255;                                              // Hebrew
    case 0x11: return 932;                                               // Japanese
    case 0x12: return 949;                                               // Korean
    case 0x1e: return 874;                                               // Thai
    case 0x1f: return 1254;                                              // Turkish
    case 0x25: case 0x26: case 0x27: return 1257;                        // Baltic
    case 0x2a: return 1258;                                              // Vietnamese
    default: return 1252;
  }
}

// The address a HYPERLINK field's instruction names: its first quoted word, a bookmark in the
// document ("#name") after the \l switch; empty for other fields.
std::string hyperlink_target(std::string_view code) {
  const std::size_t start = code.find_first_not_of(' ');
  if (start == std::string_view::npos || code.substr(start, 9) != "HYPERLINK") return {};
  const std::size_t open = code.find('"', start);
  const std::size_t close = open == std::string_view::npos ? open : code.find('"', open + 1);
  if (close == std::string_view::npos || close == open + 1) return {};
  const bool bookmark = code.substr(start, open - start).find("\\l") != std::string_view::npos;
  return (bookmark ? "#" : "") + std::string(code.substr(open + 1, close - open - 1));
}

}  // namespace

DocBuilder::DocBuilder(wvParseStruct* ps, DocDocument* out, const CancelToken& cancel)
    : ps_(ps), out_(out), cancel_(cancel) {
  word8_ = (ps->fib.nFib >= 105 || ps->fib.nFib == 0) && ps->fib.wIdent != 0x37FE;
  decoder_.set_document_codepage(1252);
}

DocBuilder::Region DocBuilder::region() const {
  const std::uint64_t cp = ps_->currentcp;
  const std::uint64_t text = ps_->fib.ccpText;
  const auto count = [](S32 n) { return static_cast<std::uint64_t>(std::max<S32>(n, 0)); };
  if (cp < text) return Region::main;
  const std::uint64_t footnotes_end = text + count(ps_->fib.ccpFtn);
  if (cp < footnotes_end) return Region::notes;
  const std::uint64_t endnotes_at =
      footnotes_end + count(ps_->fib.ccpHdr) + count(ps_->fib.ccpMcr) + count(ps_->fib.ccpAtn);
  if (cp >= endnotes_at && cp < endnotes_at + count(ps_->fib.ccpEdn)) return Region::notes;
  return Region::other;  // headers and footers, comments, text boxes
}

bool DocBuilder::hidden_by_field() const {
  return std::any_of(fields_.begin(), fields_.end(), [](const Field& f) { return !f.in_result; });
}

void DocBuilder::flush() {
  const std::size_t before = paragraph_.text.size();
  decoder_.flush(paragraph_.text);
  kept_bytes_ += paragraph_.text.size() - before;
}

void DocBuilder::append(std::string_view utf8) {
  flush();
  paragraph_.text += utf8;
  kept_bytes_ += utf8.size();
}

void DocBuilder::field_char(U16 ch) {
  if (ch == 0x13) {
    if (fields_.size() >= kMaxFieldDepth) ++fields_too_deep_;
    else fields_.push_back({});
  } else if (ch == 0x14) {
    if (fields_too_deep_ == 0 && !fields_.empty() && !fields_.back().in_result) {
      flush();
      fields_.back().in_result = true;
      fields_.back().result_at = paragraph_.text.size();
    }
  } else if (fields_too_deep_ > 0) {
    --fields_too_deep_;
  } else if (!fields_.empty()) {
    flush();
    Field f = std::move(fields_.back());
    fields_.pop_back();
    const std::string url = hyperlink_target(f.code);
    if (f.in_result && !url.empty() && f.result_at <= paragraph_.text.size()) {
      std::string shown = paragraph_.text.substr(f.result_at);
      if (!office::squeeze(shown).empty()) {
        paragraph_.text.resize(f.result_at);
        append("[" + shown + "](" + url + ")");
      }
    }
  }
}

void DocBuilder::character(U16 ch, U8 chartype, U16 lid) {
  if (stopped_) return;
  if (++calls_ % 4096 == 0 && cancel_.cancelled()) stopped_ = true;
  if (kept_bytes_ > kMaxTextBytes) {
    out_->text_cut = true;
    stopped_ = true;
  }
  if (stopped_) return;
  if (ch == 0x13 || ch == 0x14 || ch == 0x15) return field_char(ch);
  if (hidden_by_field()) {
    Field& f = fields_.back();
    if (!f.in_result && f.code.size() < kMaxFieldCode && ch >= 0x20 && ch < 0x7f) f.code += static_cast<char>(ch);
    return;
  }
  switch (ch) {
    case 0x07:  // the end of a cell, or of a row in the paragraph that ends one
      if (props_.in_table && region() == Region::main) {
        if (props_.row_end) end_row();
        else end_cell();
        ended_by_cell_ = true;
      }
      return;
    case 0x09: return append("\t");
    case 0x0B: return append("\n");           // a line break
    case 0x0C: case 0x0E: return append(" ");  // page, section and column breaks
    case 0x1E: return append("-");            // a non-breaking hyphen
    default: break;
  }
  if (ch < 0x20) return;  // paragraph marks (the element ends the paragraph), soft hyphens
  if (chartype == 1) {
    decoder_.use_codepage(word8_ ? 1252 : codepage_of_language(lid));
    const char byte = static_cast<char>(ch & 0xff);
    decoder_.add_bytes(std::string_view(&byte, 1));
  } else {
    decoder_.add_unit(ch);
  }
}

void DocBuilder::special(U16 ch, const CHP* chp) {
  (void)chp;
  if (stopped_) return;
  if (ch == 0x13 || ch == 0x14 || ch == 0x15) return field_char(ch);
  if (hidden_by_field()) return;
  const Region where = region();
  if (ch == 0x01 || ch == 0x08) {  // a picture, a drawing
    if (where == Region::main) ++out_->pictures;
  } else if (ch == 0x05) {  // a comment's mark
    if (where == Region::main) ++out_->doc.comments;
  } else if (ch == 0x02) {  // an automatically numbered note's mark
    office::Document& doc = out_->doc;
    if (where == Region::main) {
      doc.notes.push_back({std::to_string(doc.notes.size() + 1), {}});
      paragraph_.notes.push_back(doc.notes.size() - 1);
      append("[^" + doc.notes.back().label + "]");
    } else if (where == Region::notes) {
      ++note_texts_;  // the mark that starts the next note's text
    }
  }
}

void DocBuilder::paragraph_begins(const PAP& pap) {
  if (stopped_) return;
  props_ = {pap.istd, pap.ilfo, pap.ilvl, pap.fInTable != 0, pap.fTtp != 0};
  ended_by_cell_ = false;
  if (!props_.in_table && region() == Region::main) end_table();
}

int DocBuilder::heading_level() const {
  if (ps_->stsh.std == nullptr || props_.istd >= ps_->stsh.Stshi.cstd) return 0;
  const unsigned sti = ps_->stsh.std[props_.istd].sti;  // 1 to 9: the built-in "heading 1" to "heading 9"
  return sti >= 1 && sti <= 9 ? static_cast<int>(std::min(sti, 6u)) : 0;
}

bool DocBuilder::list_item(office::DocBlock* block) {
  if (!word8_ || props_.ilfo <= 0 || ps_->lfo == nullptr || static_cast<U32>(props_.ilfo) > ps_->nolfo) return false;
  const U32 lsid = ps_->lfo[props_.ilfo - 1].lsid;
  const unsigned level = std::min(props_.ilvl, 8u);
  block->type = office::DocBlock::Type::list_item;
  block->level = static_cast<int>(level);
  block->list = std::to_string(props_.ilfo);
  for (U16 i = 0; ps_->lst != nullptr && i < ps_->noofLST; ++i) {
    const LST& lst = ps_->lst[i];
    if (lst.lstf.lsid != lsid || lst.lvl == nullptr) continue;
    const LVLF& format = lst.lvl[lst.lstf.fSimpleList ? 0 : level].lvlf;
    if (format.nfc == kBulletFormat || format.nfc == kNoNumber) break;
    auto& numbers = list_numbers_[props_.ilfo];
    numbers[level] = numbers[level] == 0 ? std::max<std::size_t>(format.iStartAt, 1) : numbers[level] + 1;
    std::fill(numbers.begin() + level + 1, numbers.end(), 0);
    block->ordered = true;
    block->number = numbers[level];
    break;
  }
  return true;
}

void DocBuilder::paragraph_ends() {
  if (stopped_) return;
  flush();
  const Region where = region();
  if (where == Region::other) {
    paragraph_ = {};
    return;
  }
  if (where == Region::notes) {
    office::Document& doc = out_->doc;
    const std::string text = office::squeeze(paragraph_.text);
    paragraph_ = {};
    if (text.empty() || note_texts_ == 0) return;
    if (note_texts_ > doc.notes.size()) doc.notes.push_back({std::to_string(doc.notes.size() + 1), {}});
    office::Note& note = doc.notes[std::min(note_texts_, doc.notes.size()) - 1];
    note.text += note.text.empty() ? text : " " + text;
    return;
  }
  if (ended_by_cell_) return;
  if (props_.in_table) {
    if (!cell_.text.empty() && !paragraph_.text.empty()) cell_.text += "\n";
    cell_.text += std::exchange(paragraph_.text, {});
    cell_.notes.insert(cell_.notes.end(), paragraph_.notes.begin(), paragraph_.notes.end());
    paragraph_ = {};
    return;
  }
  end_table();
  office::DocBlock block;
  const bool any = office::take_paragraph(paragraph_, &block);
  paragraph_ = {};
  if (!any) return;
  if (const int level = heading_level(); level > 0) {
    block.type = office::DocBlock::Type::heading;
    block.level = level;
  } else {
    list_item(&block);
  }
  office::add_block(out_->doc, std::move(block));
}

void DocBuilder::end_cell() {
  flush();
  if (!cell_.text.empty() && !paragraph_.text.empty()) cell_.text += "\n";
  cell_.text += paragraph_.text;
  cell_.notes.insert(cell_.notes.end(), paragraph_.notes.begin(), paragraph_.notes.end());
  paragraph_ = {};
  if (++cells_ > office::kMaxTableCells) {  // hostile: the rest of the document is dropped
    out_->text_cut = true;
    stopped_ = true;
    return;
  }
  row_.push_back(office::squeeze(cell_.text));
  table_.notes.insert(table_.notes.end(), cell_.notes.begin(), cell_.notes.end());
  cell_ = {};
}

void DocBuilder::end_row() {
  paragraph_ = {};  // the row's end mark holds no text
  if (std::any_of(row_.begin(), row_.end(), [](const std::string& c) { return !c.empty(); }))
    table_.rows.push_back(std::move(row_));
  row_.clear();
}

void DocBuilder::end_table() {
  if (!cell_.text.empty()) end_cell();
  if (!row_.empty()) end_row();
  if (table_.rows.empty()) return;
  table_.type = office::DocBlock::Type::table;
  office::add_block(out_->doc, std::exchange(table_, {}));
}

void DocBuilder::finish() {
  flush();
  end_table();
}

}  // namespace mcpread::readers::doc
#endif
