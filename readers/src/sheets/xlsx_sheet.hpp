#pragma once
// A worksheet's rows and cells as XML events (from libxml2's SAX stream or a pugixml fragment,
// see xml_fragment.hpp): each cell's value shown as the cell shows it (shared strings, number
// formats, dates), each row with a value passed on to a RowSink. Internal to the readers library.
#include "sheets/sheet_table.hpp"
#include "sheets/xml_stream.hpp"

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mcpread::readers::sheets {

// The shared strings, in one buffer: the table is needed whole, and one string object per entry
// would cost more than the text itself.
struct SharedStrings {
  std::string text;
  std::vector<std::uint32_t> ends;  // end of string i in `text`
  std::string_view at(std::size_t i) const {
    const std::uint32_t begin = i == 0 ? 0 : ends[i - 1];
    return std::string_view(text).substr(begin, ends[i] - begin);
  }
};

class SheetReader : public XmlHandler {
 public:
  // Rows numbered below `first_row` are passed without their cells; the merged ranges met go to
  // *merges (may be null), the <dimension> met to *extent.
  SheetReader(const SharedStrings& strings, const std::vector<std::string>& formats, bool date1904,
              std::uint64_t first_row, const RowSink& sink, std::vector<std::string>* merges,
              std::optional<std::string>* extent)
      : strings_(strings), formats_(formats), date1904_(date1904), first_row_(first_row), sink_(sink), merges_(merges),
        extent_(extent) {}
  // The libxml2 stream feeding it, if any: stopped with it.
  XmlStream* stream = nullptr;
  // True once the sink said stop: whatever feeds it stops too.
  bool stopped() const { return stopped_; }

  // A row before first_row, cut out by RowSkipper or an index: only its number and whether it
  // has a value. False once stopped.
  bool skipped(std::uint64_t number, bool has_value);

  void start(std::string_view local, const XmlAttrs& a) override;
  void end(std::string_view local) override;
  void text(std::string_view chunk) override;

 private:
  void stop();
  std::string show() const;
  bool general(std::string_view code) const;
  bool stored_result() const;
  void keep_shared_master();
  std::string formula() const;

  struct SharedFormula {
    std::uint32_t column = 0;
    std::uint64_t row = 0;
    std::string text;
  };

  const SharedStrings& strings_;
  const std::vector<std::string>& formats_;
  bool date1904_;
  std::uint64_t first_row_;
  const RowSink& sink_;
  std::vector<std::string>* merges_;
  std::optional<std::string>* extent_;
  Row row_;
  std::uint32_t column_ = UINT32_MAX;
  std::size_t cells_before_ = 0;
  mutable std::vector<signed char> general_;  // by style: 1 General, 0 not, -1 not asked yet
  std::string type_;
  std::size_t style_ = 0;
  std::string value_;
  std::string formula_;       // the cell's <f> text
  std::string formula_type_;  // its t: "shared", "array", or normal when empty
  std::uint32_t shared_index_ = UINT32_MAX;
  std::map<std::uint32_t, SharedFormula> shared_;  // masters by si
  std::size_t shared_bytes_ = 0;
  bool has_formula_ = false, has_v_ = false, capture_formula_ = false;
  bool in_row_ = false, in_cell_ = false, in_inline_ = false, in_phonetic_ = false, capture_ = false;
  bool skipping_ = false, skipped_value_ = false, stopped_ = false;
};

}  // namespace mcpread::readers::sheets
