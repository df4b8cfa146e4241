#pragma once
// A librevenge drawing and presentation interface that keeps what a model reads of a deck of
// pages (Visio, Publisher, CorelDRAW and the other drawing importers) or of slides (Keynote): each
// page's name, the text of its text objects and tables, paragraph by paragraph, its embedded raster
// images, and a slide's speaker notes. Shapes, master pages and comments are left out. What it
// keeps becomes the JSON revenge_plugin_api.h describes for mcpread_revenge_read_deck.
#include "pictures.hpp"
#include "shapes_ignored.hpp"

#include <librevenge/librevenge.h>
#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace mcpread_revenge {

inline constexpr std::size_t kMaxPages = 10000;  // pages or slides kept (the readers' deck limit)

// One class for both interfaces: their callbacks of the same name mean the same (a text object,
// a paragraph, a picture), and a page and a slide are kept alike.
class DeckCollector final : public ShapesIgnored<librevenge::RVNGDrawingInterface>,
                            public ShapesIgnored<librevenge::RVNGPresentationInterface> {
 public:
  nlohmann::json result() const;

  void startDocument(const librevenge::RVNGPropertyList&) override {}
  void endDocument() override { end_page(); }
  void setDocumentMetaData(const librevenge::RVNGPropertyList&) override {}
  void defineEmbeddedFont(const librevenge::RVNGPropertyList&) override {}
  void startPage(const librevenge::RVNGPropertyList& props) override { start_page(props); }
  void endPage() override { end_page(); }
  void startSlide(const librevenge::RVNGPropertyList& props) override {
    slides_ = true;
    start_page(props);
  }
  void endSlide() override { end_page(); }
  // A master page's text (a logo, a footer, placeholders) repeats on every page: left out.
  void startMasterPage(const librevenge::RVNGPropertyList&) override { ++ignored_; }
  void endMasterPage() override { leave_ignored(); }
  void startMasterSlide(const librevenge::RVNGPropertyList&) override { ++ignored_; }
  void endMasterSlide() override { leave_ignored(); }
  void startComment(const librevenge::RVNGPropertyList&) override { ++ignored_; }
  void endComment() override { leave_ignored(); }
  void startNotes(const librevenge::RVNGPropertyList&) override;
  void endNotes() override;
  void setStyle(const librevenge::RVNGPropertyList&) override {}
  void setSlideTransition(const librevenge::RVNGPropertyList&) override {}
  void startLayer(const librevenge::RVNGPropertyList&) override {}
  void endLayer() override {}
  void startEmbeddedGraphics(const librevenge::RVNGPropertyList&) override {}
  void endEmbeddedGraphics() override {}
  void drawGraphicObject(const librevenge::RVNGPropertyList& props) override;
  void startTextObject(const librevenge::RVNGPropertyList&) override { end_block(); }
  void endTextObject() override { end_block(); }
  void startTableObject(const librevenge::RVNGPropertyList&) override { end_block(); }
  void openTableRow(const librevenge::RVNGPropertyList&) override { row_.clear(); }
  void closeTableRow() override;
  void openTableCell(const librevenge::RVNGPropertyList&) override { in_cell_ = true; }
  void closeTableCell() override;
  void insertCoveredTableCell(const librevenge::RVNGPropertyList&) override {}
  void endTableObject() override { end_block(); }
  void insertTab() override { text("\t"); }
  void insertSpace() override { text(" "); }
  void insertText(const librevenge::RVNGString& s) override { text(s.cstr()); }
  void insertLineBreak() override { text("\n"); }
  void insertField(const librevenge::RVNGPropertyList&) override {}
  void openOrderedListLevel(const librevenge::RVNGPropertyList&) override { lists_.push_back(List{true, 1}); }
  void openUnorderedListLevel(const librevenge::RVNGPropertyList&) override { lists_.push_back(List{false, 1}); }
  void closeOrderedListLevel() override { close_list_level(); }
  void closeUnorderedListLevel() override { close_list_level(); }
  void openListElement(const librevenge::RVNGPropertyList&) override;
  void closeListElement() override { end_paragraph(); }
  void defineParagraphStyle(const librevenge::RVNGPropertyList&) override {}
  void openParagraph(const librevenge::RVNGPropertyList&) override { end_paragraph(); }
  void closeParagraph() override { end_paragraph(); }
  void defineCharacterStyle(const librevenge::RVNGPropertyList&) override {}
  void openSpan(const librevenge::RVNGPropertyList&) override {}
  void closeSpan() override {}
  void openLink(const librevenge::RVNGPropertyList&) override {}
  void closeLink() override {}
  // Charts and animations: a chart's words are its data's, which a model cannot tell apart here.
  void defineChartStyle(const librevenge::RVNGPropertyList&) override {}
  void openChart(const librevenge::RVNGPropertyList&) override { ++ignored_; }
  void closeChart() override { leave_ignored(); }
  void openChartTextObject(const librevenge::RVNGPropertyList&) override {}
  void closeChartTextObject() override {}
  void openChartPlotArea(const librevenge::RVNGPropertyList&) override {}
  void closeChartPlotArea() override {}
  void insertChartAxis(const librevenge::RVNGPropertyList&) override {}
  void openChartSeries(const librevenge::RVNGPropertyList&) override {}
  void closeChartSeries() override {}
  void openAnimationSequence(const librevenge::RVNGPropertyList&) override {}
  void closeAnimationSequence() override {}
  void openAnimationGroup(const librevenge::RVNGPropertyList&) override {}
  void closeAnimationGroup() override {}
  void openAnimationIteration(const librevenge::RVNGPropertyList&) override {}
  void closeAnimationIteration() override {}
  void insertMotionAnimation(const librevenge::RVNGPropertyList&) override {}
  void insertColorAnimation(const librevenge::RVNGPropertyList&) override {}
  void insertAnimation(const librevenge::RVNGPropertyList&) override {}
  void insertEffect(const librevenge::RVNGPropertyList&) override {}

 private:
  struct Page {
    std::string name;
    std::string text;   // blocks (text objects, tables, image markers) apart by a blank line
    std::string notes;
    std::vector<std::size_t> images;
  };
  struct List {
    bool ordered;
    std::size_t next;
  };

  bool keeps() const { return ignored_ == 0 && !cut_; }
  void leave_ignored();
  void start_page(const librevenge::RVNGPropertyList& props);
  void end_page();
  Page& page();
  std::string& target();  // the page's text, or its notes
  void text(const char* utf8);
  void end_paragraph();
  void end_block();
  void close_list_level();
  bool charge(std::size_t bytes);

  std::vector<Page> pages_;
  bool in_page_ = false;
  int ignored_ = 0;
  int notes_ = 0;
  std::string paragraph_;        // the paragraph being written
  std::string block_;            // the text object's paragraphs so far, a line each
  std::string item_prefix_;      // a list item's mark ("- ", "2. "), put before its paragraph
  std::vector<std::string> row_;  // a table row's cells
  std::string cell_;
  bool in_cell_ = false;
  bool slides_ = false;           // a presentation: its pages are slides
  std::vector<List> lists_;
  Pictures pictures_;
  std::size_t text_bytes_ = 0;
  bool cut_ = false;
};

}  // namespace mcpread_revenge
