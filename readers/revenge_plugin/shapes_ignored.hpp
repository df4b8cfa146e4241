#pragma once
// The shape callbacks every librevenge interface has (text, spreadsheet, drawing, presentation):
// the collectors keep what a model reads, the text and the pictures, so shapes and their groups
// are drawn nowhere. One base for all of them instead of a copy in each collector.
#include <librevenge/librevenge.h>

namespace mcpread_revenge {

template <class Interface>
class ShapesIgnored : public Interface {
 public:
  void openGroup(const librevenge::RVNGPropertyList&) override {}
  void closeGroup() override {}
  void drawRectangle(const librevenge::RVNGPropertyList&) override {}
  void drawEllipse(const librevenge::RVNGPropertyList&) override {}
  void drawPolygon(const librevenge::RVNGPropertyList&) override {}
  void drawPolyline(const librevenge::RVNGPropertyList&) override {}
  void drawPath(const librevenge::RVNGPropertyList&) override {}
  void drawConnector(const librevenge::RVNGPropertyList&) override {}
};

}  // namespace mcpread_revenge
