#pragma once
// A librevenge spreadsheet interface that keeps what a model reads of a workbook: each sheet's
// name and the cells holding a value, by row and column, as the text they show (their paragraphs'
// text, else their value); charts, comments, headers, footers and text boxes are left out. What
// it keeps becomes the JSON revenge_plugin_api.h describes for mcpread_revenge_read_sheet.
#include "shapes_ignored.hpp"

#include <librevenge/librevenge.h>
#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace mcpread_revenge {

inline constexpr std::size_t kMaxSheetTextBytes = 64u << 20;  // cell text kept from one workbook
inline constexpr std::size_t kMaxSheetCells = 2000000;        // cells kept from one workbook
inline constexpr std::size_t kMaxSheets = 4096;               // sheets kept
inline constexpr std::uint32_t kMaxRepeat = 16384;            // copies of one repeated cell kept

class SheetCollector final : public ShapesIgnored<librevenge::RVNGSpreadsheetInterface> {
 public:
  nlohmann::json result() const;

  void endDocument() override {}
  void openSheet(const librevenge::RVNGPropertyList& props) override;
  void closeSheet() override { in_sheet_ = false; }
  void openSheetRow(const librevenge::RVNGPropertyList& props) override;
  void closeSheetRow() override {}
  void openSheetCell(const librevenge::RVNGPropertyList& props) override;
  void closeSheetCell() override;
  void openParagraph(const librevenge::RVNGPropertyList&) override;
  void insertTab() override { text("\t"); }
  void insertSpace() override { text(" "); }
  void insertText(const librevenge::RVNGString& s) override { text(s.cstr()); }
  void insertLineBreak() override { text("\n"); }
  // Text that is not a cell's own: not kept (counted so that a cell's text stops and resumes).
  void openHeader(const librevenge::RVNGPropertyList&) override { ++ignored_; }
  void closeHeader() override { --ignored_; }
  void openFooter(const librevenge::RVNGPropertyList&) override { ++ignored_; }
  void closeFooter() override { --ignored_; }
  void openComment(const librevenge::RVNGPropertyList&) override { ++ignored_; }
  void closeComment() override { --ignored_; }
  void openFootnote(const librevenge::RVNGPropertyList&) override { ++ignored_; }
  void closeFootnote() override { --ignored_; }
  void openChart(const librevenge::RVNGPropertyList&) override { ++ignored_; }
  void closeChart() override { --ignored_; }
  void openChartTextObject(const librevenge::RVNGPropertyList&) override { ++ignored_; }
  void closeChartTextObject() override { --ignored_; }
  void openTextBox(const librevenge::RVNGPropertyList&) override { ++ignored_; }
  void closeTextBox() override { --ignored_; }

  void setDocumentMetaData(const librevenge::RVNGPropertyList&) override {}
  void startDocument(const librevenge::RVNGPropertyList&) override {}
  void definePageStyle(const librevenge::RVNGPropertyList&) override {}
  void defineEmbeddedFont(const librevenge::RVNGPropertyList&) override {}
  void openPageSpan(const librevenge::RVNGPropertyList&) override {}
  void closePageSpan() override {}
  void defineSheetNumberingStyle(const librevenge::RVNGPropertyList&) override {}
  void defineChartStyle(const librevenge::RVNGPropertyList&) override {}
  void openChartPlotArea(const librevenge::RVNGPropertyList&) override {}
  void closeChartPlotArea() override {}
  void insertChartAxis(const librevenge::RVNGPropertyList&) override {}
  void openChartSerie(const librevenge::RVNGPropertyList&) override {}
  void closeChartSerie() override {}
  void defineParagraphStyle(const librevenge::RVNGPropertyList&) override {}
  void closeParagraph() override {}
  void defineCharacterStyle(const librevenge::RVNGPropertyList&) override {}
  void openSpan(const librevenge::RVNGPropertyList&) override {}
  void closeSpan() override {}
  void openLink(const librevenge::RVNGPropertyList&) override {}
  void closeLink() override {}
  void defineSectionStyle(const librevenge::RVNGPropertyList&) override {}
  void openSection(const librevenge::RVNGPropertyList&) override {}
  void closeSection() override {}
  void insertField(const librevenge::RVNGPropertyList&) override {}
  void openOrderedListLevel(const librevenge::RVNGPropertyList&) override {}
  void openUnorderedListLevel(const librevenge::RVNGPropertyList&) override {}
  void closeOrderedListLevel() override {}
  void closeUnorderedListLevel() override {}
  void openListElement(const librevenge::RVNGPropertyList&) override {}
  void closeListElement() override {}
  void openFrame(const librevenge::RVNGPropertyList&) override {}
  void closeFrame() override {}
  void insertBinaryObject(const librevenge::RVNGPropertyList&) override {}
  void openTable(const librevenge::RVNGPropertyList&) override {}
  void openTableRow(const librevenge::RVNGPropertyList&) override {}
  void closeTableRow() override {}
  void openTableCell(const librevenge::RVNGPropertyList&) override {}
  void closeTableCell() override {}
  void insertCoveredTableCell(const librevenge::RVNGPropertyList&) override {}
  void closeTable() override {}
  void defineGraphicStyle(const librevenge::RVNGPropertyList&) override {}
  void insertEquation(const librevenge::RVNGPropertyList&) override {}

 private:
  struct Sheet {
    std::string name;
    std::map<std::uint64_t, std::map<std::uint32_t, std::string>> rows;  // 0-based row, column
  };
  void text(const char* s);
  bool keeps() const { return in_cell_ && ignored_ == 0 && !cut_; }

  std::vector<Sheet> sheets_;
  bool in_sheet_ = false;
  bool in_cell_ = false;
  int ignored_ = 0;
  std::uint64_t next_row_ = 0;     // the row the next openSheetRow opens, when it does not say
  std::uint64_t row_ = 0;
  std::uint32_t next_column_ = 0;  // the same of cells within the row
  std::uint64_t cell_row_ = 0;
  std::uint32_t cell_column_ = 0;
  std::uint32_t cell_repeat_ = 1;
  std::string cell_text_;          // the cell's paragraphs
  std::string cell_value_;         // its value, shown when it has no text
  std::size_t bytes_ = 0;
  std::size_t cells_ = 0;
  bool cut_ = false;
};

}  // namespace mcpread_revenge
