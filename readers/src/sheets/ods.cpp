#include "sheets/ods.hpp"

#include "package/xml.hpp"
#include "sheets/formula_text.hpp"
#include "sheets/xml_fragment.hpp"
#include "sheets/xml_stream.hpp"

#include <charconv>
#include <functional>
#include <set>

namespace mcpread::readers::sheets {
namespace {

namespace xml = package::xml;

constexpr std::size_t kMaxCellText = 1 << 20;  // text gathered for one cell; shown cut anyway
constexpr char kContent[] = "content.xml";
constexpr std::size_t kMaxSheets = 10000;     // tables (and hidden table styles) kept by name
constexpr std::size_t kMaxNameBytes = 1000;   // of a table's or a style's name

std::uint64_t count_attr(const XmlAttrs& a, std::string_view name, std::uint64_t cap) {
  const std::string_view s = a.get(name);
  std::uint64_t v = 1;
  const auto got = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || got.ec != std::errc() || v == 0) return 1;
  return std::min(v, cap);
}

// The first pass: the tables' names and which are hidden (their table style says display="false").
class SheetNames : public XmlHandler {
 public:
  std::vector<SheetInfo> sheets;
  void start(std::string_view local, const XmlAttrs& a) override {
    if (local == "style" && a.get("family") == "table") {
      style_ = std::string(a.get("name").substr(0, kMaxNameBytes));
    } else if (local == "table-properties" && !style_.empty() && a.get("display") == "false" &&
               hidden_styles_.size() < kMaxSheets) {
      hidden_styles_.insert(style_);
    } else if (local == "table") {
      // Bounded like everything kept from a stream: a content.xml of millions of empty tables
      // names the first kMaxSheets.
      if (depth_++ == 0 && sheets.size() < kMaxSheets)
        sheets.push_back(SheetInfo{std::string(a.get("name").substr(0, kMaxNameBytes)),
                                   hidden_styles_.count(std::string(a.get("style-name"))) > 0, {}, {}});
    }
  }
  void end(std::string_view local) override {
    if (local == "style") style_.clear();
    else if (local == "table" && depth_ > 0) --depth_;
  }
  void text(std::string_view) override {}

 private:
  std::string style_;
  std::set<std::string, std::less<>> hidden_styles_;
  int depth_ = 0;
};

class TableRows : public XmlHandler {
 public:
  TableRows(std::size_t index, std::uint64_t first_row, const RowSink& sink, std::vector<std::string>* merges)
      : index_(index), first_row_(first_row), sink_(sink), merges_(merges) {}
  XmlStream* stream = nullptr;  // the libxml2 stream feeding it, if any: stopped with it
  bool done = false;
  bool stopped() const { return stopped_; }

  void start(std::string_view local, const XmlAttrs& a) override {
    if (local == "table") {
      if (depth_++ == 0 && ++seen_ == index_ + 1) inside_ = true;
      return;
    }
    if (!inside_ || depth_ != 1) return;
    if (local == "table-row") {
      row_repeat_ = count_attr(a, "number-rows-repeated", kMaxRows);
      row_.cells.clear();
      row_.bytes = 0;
      row_.cut = false;
      row_.formula_cells = 0;
      column_ = 0;
      // Wholly before the first row asked for: only whether it holds a value matters.
      skipping_ = row_number_ + row_repeat_ < first_row_;
      skipped_value_ = false;
    } else if (skipping_) {
      if (local == "table-cell" && (!a.get("value-type").empty() || !a.get("value").empty() || !a.get("formula").empty()))
        skipped_value_ = true;
      if (local == "p" || local == "h") skipped_value_ = true;
    } else if (local == "table-cell" || local == "covered-table-cell") {
      cell_repeat_ = count_attr(a, "number-columns-repeated", kMaxColumns);
      in_cell_ = true;
      paragraphs_ = 0;
      text_.clear();
      type_ = a.get("value-type");
      // Only a cell without a value type can lack its result (most cells with a formula have one).
      formula_ = type_.empty() ? a.get("formula") : std::string_view();
      value_ = type_ == "date"      ? a.get("date-value")
               : type_ == "time"    ? a.get("time-value")
               : type_ == "boolean" ? a.get("boolean-value")
               : type_ == "string"  ? a.get("string-value")
                                    : a.get("value");
      const std::uint64_t across = count_attr(a, "number-columns-spanned", kMaxColumns);
      const std::uint64_t down = count_attr(a, "number-rows-spanned", kMaxRows);
      if ((across > 1 || down > 1) && merges_ != nullptr && merges_->size() < 1000 && column_ < kMaxColumns) {
        const auto last_col = static_cast<std::uint32_t>(std::min<std::uint64_t>(column_ + across - 1, kMaxColumns - 1));
        merges_->push_back(column_name(static_cast<std::uint32_t>(column_)) + std::to_string(row_number_ + 1) + ":" + column_name(last_col) +
                           std::to_string(row_number_ + down));
      }
    } else if (in_cell_ && local == "annotation") {
      ++annotation_;
    } else if (in_cell_ && annotation_ == 0) {
      if (local == "p" || local == "h") {
        if (paragraphs_++ > 0) append("\n");
        in_p_ = true;
      } else if (local == "s" && in_p_) {
        append(std::string(static_cast<std::size_t>(count_attr(a, "c", 1000)), ' '));
      } else if (local == "tab" && in_p_) {
        append("\t");
      } else if (local == "line-break" && in_p_) {
        append("\n");
      }
    }
  }
  void end(std::string_view local) override {
    if (local == "table") {
      if (--depth_ == 0 && inside_) {
        inside_ = false;
        done = true;
        stop();
      }
      return;
    }
    if (!inside_ || depth_ != 1) return;
    if (local == "annotation" && annotation_ > 0) {
      --annotation_;
    } else if (local == "p" || local == "h") {
      in_p_ = false;
    } else if ((local == "table-cell" || local == "covered-table-cell") && in_cell_) {
      in_cell_ = false;
      std::string shown = paragraphs_ > 0 ? text_ : std::string(value_);
      bool formula = false;
      if (shown.empty() && !formula_.empty()) {  // a formula, no value type, nothing shown: not calculated
        shown = formula_cell_text(a1_formula(formula_));
        formula = !shown.empty();
      }
      if (!shown.empty() && column_ < kMaxColumns) {
        const std::uint64_t n = std::min<std::uint64_t>(cell_repeat_, kMaxColumns - column_);
        for (std::uint64_t k = 0; k < n && !row_.cut; ++k)
          add_cell(row_, Cell{static_cast<std::uint32_t>(column_ + k), shown}, formula);
      }
      column_ += cell_repeat_;
    } else if (local == "table-row" && skipping_) {
      skipping_ = false;
      row_number_ += row_repeat_;
      if (skipped_value_ && !sink_(Row{row_number_, {}})) stop();
    } else if (local == "table-row") {
      if (row_.cells.empty()) {
        row_number_ += row_repeat_;
        return;
      }
      for (std::uint64_t k = 0; k < row_repeat_ && row_number_ < kMaxRows; ++k) {
        Row copy;
        copy.number = ++row_number_;
        copy.cells = row_.cells;
        copy.bytes = row_.bytes;
        copy.cut = row_.cut;
        copy.formula_cells = row_.formula_cells;
        if (!sink_(std::move(copy))) {
          stop();
          return;
        }
      }
    }
  }
  void text(std::string_view chunk) override {
    if (in_cell_ && in_p_ && annotation_ == 0) append(chunk);
  }

 private:
  void append(std::string_view s) {
    if (text_.size() < kMaxCellText) text_ += s.substr(0, kMaxCellText - text_.size());
  }

  std::size_t index_;
  std::uint64_t first_row_;
  const RowSink& sink_;
  std::vector<std::string>* merges_;
  int depth_ = 0;
  std::size_t seen_ = 0;
  bool inside_ = false, in_cell_ = false, in_p_ = false, skipping_ = false, skipped_value_ = false;
  int annotation_ = 0;
  std::size_t paragraphs_ = 0;
  Row row_;
  void stop() {
    stopped_ = true;
    if (stream != nullptr) stream->stop();
  }
  bool stopped_ = false;
  std::uint64_t row_number_ = 0, row_repeat_ = 1, cell_repeat_ = 1, column_ = 0;
  std::string text_;
  std::string type_;
  std::string value_;
  std::string formula_;  // its table:formula ("of:=SUM([.A1:.A3])")
};

// content.xml through `handler`: held whole in the cache, by pugixml unless it is unusual (see
// XmlFragment::run_whole); otherwise streamed through libxml2, whose stream is put in *out first.
bool run(package::ZipArchive& zip, XmlHandler& handler, const std::function<bool()>& stopped, XmlStream** out,
         std::string* error) {
  if (const auto done = read_held_part(zip, kContent, handler, stopped, error)) return *done;
  auto stream = XmlStream::create(handler, kContent, error);
  if (!stream) return false;
  *out = stream.get();
  XmlStream* s = stream.get();
  if (!zip.stream(kContent, [&](std::string_view chunk) { return s->feed(chunk, false); }, error)) return false;
  if (s->stopped_by_handler()) return true;
  if (s->error().empty()) s->feed({}, true);
  if (!s->error().empty()) {
    *error = s->error();
    return false;
  }
  return true;
}

class OdsWorkbook : public Workbook {
 public:
  bool open(package::ZipArchive& zip, std::string* error) {
    zip_ = &zip;
    if (zip.find("META-INF/manifest.xml") != nullptr) {
      std::string ignored;
      auto bytes = zip.read("META-INF/manifest.xml", &ignored, 8u << 20);
      pugi::xml_document doc;
      if (bytes && xml::parse(std::move(*bytes), "META-INF/manifest.xml", &doc, &ignored) &&
          xml::descendant(doc, "encryption-data")) {
        *error = "it is password-protected (encrypted): its cells cannot be read without the password";
        return false;
      }
    }
    SheetNames names;
    XmlStream* stream = nullptr;
    if (!run(zip, names, [] { return false; }, &stream, error)) return false;
    sheets_ = std::move(names.sheets);
    if (sheets_.empty()) {
      *error = "its content.xml holds no table (is it a spreadsheet?)";
      return false;
    }
    return true;
  }

  bool rows(std::size_t index, std::uint64_t first_row, const RowSink& sink, std::vector<std::string>* merges,
            std::string* error) override {
    TableRows reader(index, first_row, sink, merges);
    return run(*zip_, reader, [&] { return reader.stopped(); }, &reader.stream, error);
  }

 private:
  package::ZipArchive* zip_ = nullptr;
};

}  // namespace

std::unique_ptr<Workbook> open_ods(package::ZipArchive& zip, std::string* error) {
  auto book = std::make_unique<OdsWorkbook>();
  if (!book->open(zip, error)) return nullptr;
  return book;
}

}  // namespace mcpread::readers::sheets
