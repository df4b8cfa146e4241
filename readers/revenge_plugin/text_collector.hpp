#pragma once
// A librevenge text interface that keeps what a model reads of a document: paragraphs, headings
// (their outline level), list items, tables as rows of cell text, footnotes and endnotes,
// hyperlinks and embedded raster images; headers, footers and comments are left out. What it
// keeps becomes the JSON revenge_plugin_api.h describes.
#include "pictures.hpp"
#include "shapes_ignored.hpp"

#include <librevenge/librevenge.h>
#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace mcpread_revenge {

inline constexpr std::size_t kMaxTextBytes = 32u << 20;      // text kept from one document
inline constexpr std::size_t kBlockCost = 256;                // text bytes a paragraph or table is charged
inline constexpr std::size_t kMaxCells = 100000;             // table cells kept
inline constexpr std::size_t kMaxDepth = 64;                 // nested tables, notes, text boxes

class TextCollector final : public ShapesIgnored<librevenge::RVNGTextInterface> {
 public:
  nlohmann::json result() const;

  void setDocumentMetaData(const librevenge::RVNGPropertyList&) override {}
  void startDocument(const librevenge::RVNGPropertyList&) override {}
  void endDocument() override;
  void definePageStyle(const librevenge::RVNGPropertyList&) override {}
  void defineEmbeddedFont(const librevenge::RVNGPropertyList&) override {}
  void openPageSpan(const librevenge::RVNGPropertyList&) override {}
  void closePageSpan() override {}
  void openHeader(const librevenge::RVNGPropertyList&) override { push(Where::ignored); }
  void closeHeader() override { pop(); }
  void openFooter(const librevenge::RVNGPropertyList&) override { push(Where::ignored); }
  void closeFooter() override { pop(); }
  void defineParagraphStyle(const librevenge::RVNGPropertyList&) override {}
  void openParagraph(const librevenge::RVNGPropertyList& props) override;
  void closeParagraph() override { end_paragraph(); }
  void defineCharacterStyle(const librevenge::RVNGPropertyList&) override {}
  void openSpan(const librevenge::RVNGPropertyList&) override {}
  void closeSpan() override {}
  void openLink(const librevenge::RVNGPropertyList& props) override;
  void closeLink() override;
  void defineSectionStyle(const librevenge::RVNGPropertyList&) override {}
  void openSection(const librevenge::RVNGPropertyList&) override {}
  void closeSection() override {}
  void insertTab() override { text("\t"); }
  void insertSpace() override { text(" "); }
  void insertText(const librevenge::RVNGString& s) override { text(s.cstr()); }
  void insertLineBreak() override { text("\n"); }
  void insertField(const librevenge::RVNGPropertyList&) override {}
  void openOrderedListLevel(const librevenge::RVNGPropertyList& props) override;
  void openUnorderedListLevel(const librevenge::RVNGPropertyList& props) override;
  void closeOrderedListLevel() override { close_list_level(); }
  void closeUnorderedListLevel() override { close_list_level(); }
  void openListElement(const librevenge::RVNGPropertyList& props) override;
  void closeListElement() override { end_paragraph(); }
  void openFootnote(const librevenge::RVNGPropertyList&) override { open_note(); }
  void closeFootnote() override { pop(); }
  void openEndnote(const librevenge::RVNGPropertyList&) override { open_note(); }
  void closeEndnote() override { pop(); }
  void openComment(const librevenge::RVNGPropertyList&) override;
  void closeComment() override { pop(); }
  void openTextBox(const librevenge::RVNGPropertyList&) override { push(top().where); }
  void closeTextBox() override { pop(); }
  void openTable(const librevenge::RVNGPropertyList&) override;
  void openTableRow(const librevenge::RVNGPropertyList&) override;
  void closeTableRow() override;
  void openTableCell(const librevenge::RVNGPropertyList&) override;
  void closeTableCell() override;
  void insertCoveredTableCell(const librevenge::RVNGPropertyList&) override;
  void closeTable() override;
  void openFrame(const librevenge::RVNGPropertyList&) override {}
  void closeFrame() override {}
  void insertBinaryObject(const librevenge::RVNGPropertyList& props) override;
  void insertEquation(const librevenge::RVNGPropertyList&) override {}
  void defineGraphicStyle(const librevenge::RVNGPropertyList&) override {}

 private:
  enum class Where { body, cell, note, ignored };
  struct Link {
    std::size_t at;    // where its text starts in the paragraph
    std::string href;
  };
  struct Paragraph {
    bool open = false;
    std::string text;
    std::vector<std::size_t> notes, images;
    int heading = 0;      // outline level, 0 for none
    bool list_item = false;
    int level = 0;        // a list item's nesting, from 0
    bool ordered = false;
    std::size_t number = 0;
    std::size_t list = 0;  // which list
    std::vector<Link> links;
  };
  struct Context {        // where paragraphs go, and the one being written
    Where where;
    Paragraph paragraph;
    std::size_t note = 0;  // Where::note: which note
  };
  struct Table {
    std::vector<std::vector<std::string>> rows;
    std::vector<std::string> row;
    std::vector<std::size_t> notes, images;
    std::string cell;
    bool in_row = false;
  };
  struct ListLevel {
    bool ordered;
    std::size_t next;     // the number of the next item
  };

  Context& top() { return contexts_.back(); }
  void push(Where where);
  void pop();
  void text(const char* utf8);
  void start_paragraph(const librevenge::RVNGPropertyList* props, bool list_item);
  void end_paragraph();
  void open_note();
  void close_list_level();
  void add_block(nlohmann::json block);

  std::vector<Context> contexts_{Context{Where::body, {}, 0}};
  std::vector<Table> tables_;
  std::vector<ListLevel> lists_;
  std::size_t list_id_ = 0;       // lists met so far: a new one starts when the first level opens
  std::size_t depth_overflow_ = 0;  // pushes past kMaxDepth, ignored in pairs
  nlohmann::json blocks_ = nlohmann::json::array();
  std::vector<std::string> notes_;
  Pictures pictures_;
  std::size_t comments_ = 0;
  std::size_t text_bytes_ = 0;
  std::size_t cells_ = 0;
  bool cut_ = false;
};

}  // namespace mcpread_revenge
