#include "sheets/xlsb.hpp"

#include "human_size.hpp"
#include "markdown_cell.hpp"
#include "package/part_cache.hpp"
#include "package/parts.hpp"
#include "package/xml.hpp"
#include "sheets/number_format.hpp"
#include "sheets/xlsb_records.hpp"
#include "sheets/xlsx_sheet.hpp"

#include <map>

namespace mcpread::readers::sheets {
namespace {

namespace xml = package::xml;
using namespace xlsb;

constexpr std::uint64_t kMaxPartBytes = 32ull << 20;  // workbook and styles parts, and relationships
constexpr std::size_t kMaxRecord = 1u << 20;          // a wanted record: a cell's string at most 512 Ki units
constexpr std::size_t kMaxStyles = 1u << 16;          // cell formats read (Excel allows 64,000)

// Streams `part` through a RecordStream; false with a clause in *error.
bool read_records(package::ZipArchive& zip, const std::string& part, RecordStream& records, std::string* error) {
  if (!zip.stream(part, [&](std::string_view chunk) { return records.feed(chunk); }, error)) return false;
  if (records.stopped() && records.error().empty()) return true;
  if (!records.finish()) {
    *error = "its part \"" + part + "\" cannot be read: " + records.error();
    return false;
  }
  return true;
}

// What opening makes of the workbook, styles and shared strings: kept in the readers' cache.
struct Parsed {
  bool date1904 = false;
  SharedStrings strings;
  std::vector<std::string> formats;  // each cell format's number format code, by the cell's style
  std::vector<SheetInfo> sheets;

  std::size_t bytes() const {
    std::size_t n = sizeof(*this) + strings.text.capacity() + 4 * strings.ends.capacity();
    for (const auto& f : formats) n += sizeof(f) + f.capacity();
    for (const auto& i : sheets) n += sizeof(i) + i.name.capacity() + i.part.capacity();
    return n;
  }
};

// A RichStr ([MS-XLSB] 2.5.121): flags, then the string (its runs and phonetic text not shown).
std::string rich_string(Fields& f) {
  f.u8();
  return f.wide_string();
}

// The sheets, the date system and the cell formats; the shared-strings part named to *shared.
bool parse_workbook(package::ZipArchive& zip, Parsed* out, std::string* shared, std::string* error) {
  std::string workbook = "xl/workbook.bin";
  for (const auto& [id, rel] : package::rels_or_none(zip, "", kMaxPartBytes))
    if (!rel.external && rel.type == "officeDocument" && !rel.target.empty()) workbook = rel.target;
  if (zip.find(workbook) == nullptr) {
    *error = "it has no workbook part (\"" + workbook + "\")";
    return false;
  }
  const auto rels = package::rels_or_none(zip, workbook, kMaxPartBytes);
  RecordStream records(
      [](std::uint32_t t) { return t == kBundleSh || t == kWbProp; },
      [&](std::uint32_t type, std::string_view body) {
        Fields f(body);
        if (type == kWbProp) {
          out->date1904 = (f.u32() & 1) != 0;
          return true;
        }
        // Its state, tab id and relationship id, then its name. Some writers put 4 more bytes
        // before the strings (apache POI's Simple.xlsb): the layout whose strings end the
        // record is taken.
        SheetInfo info;
        std::string rel_id;
        const auto layout = [&](std::size_t skipped, bool whole) {
          Fields g(body);
          info.hidden = (g.u32() & 3) != 0;  // hidden or very hidden
          g.skip(skipped);
          rel_id = g.wide_string(true);
          info.name = g.wide_string();
          return !g.failed() && (!whole || g.left() == 0);
        };
        if (!layout(4, true) && !layout(8, true) && !layout(4, false)) return true;  // a damaged entry: no sheet
        if (const auto rel = rels.find(rel_id); rel != rels.end() && !rel->second.external)
          info.part = rel->second.target;
        out->sheets.push_back(std::move(info));
        return out->sheets.size() < 65536;
      },
      kMaxRecord);
  if (!read_records(zip, workbook, records, error)) return false;
  if (out->sheets.empty()) {
    *error = "its workbook names no sheet";
    return false;
  }
  std::string styles;
  for (const auto& [id, rel] : rels) {
    if (rel.external) continue;
    if (rel.type == "sharedStrings") *shared = rel.target;
    else if (rel.type == "styles") styles = rel.target;
  }
  if (!styles.empty() && zip.find(styles) != nullptr) {
    // Each cell format (BrtXF inside BrtBeginCellXfs) names a number format: built in, or a
    // BrtFmt of the part. Without the styles, numbers show as General.
    std::map<unsigned, std::string> custom;
    std::vector<unsigned> ids;
    bool in_cell_xfs = false;
    RecordStream style_records(
        [](std::uint32_t t) { return t == kFmt || t == kXf || t == kBeginCellXfs || t == kEndCellXfs; },
        [&](std::uint32_t type, std::string_view body) {
          Fields f(body);
          if (type == kBeginCellXfs || type == kEndCellXfs) in_cell_xfs = type == kBeginCellXfs;
          else if (type == kFmt) {
            const unsigned id = f.u16();
            std::string code = f.wide_string();
            if (!f.failed()) custom[id] = std::move(code);
          } else if (in_cell_xfs && ids.size() < kMaxStyles) {
            f.u16();  // the parent style
            ids.push_back(f.u16());
          }
          return true;
        },
        kMaxRecord);
    std::string ignored;
    if (read_records(zip, styles, style_records, &ignored))
      for (const unsigned id : ids) {
        const auto c = custom.find(id);
        out->formats.emplace_back(c != custom.end() ? c->second : std::string(builtin_format(id)));
      }
  }
  return true;
}

bool parse_shared_strings(package::ZipArchive& zip, const std::string& part, std::size_t cap, Parsed* out,
                          std::string* error) {
  bool over = false;
  RecordStream records(
      [](std::uint32_t t) { return t == kSstItem; },
      [&](std::uint32_t, std::string_view body) {
        Fields f(body);
        out->strings.text += rich_string(f);
        out->strings.ends.push_back(static_cast<std::uint32_t>(out->strings.text.size()));
        over = out->strings.text.size() + 4 * out->strings.ends.size() > cap || out->strings.text.size() >= UINT32_MAX;
        return !over;
      },
      kMaxRecord);
  if (!read_records(zip, part, records, error)) return false;
  if (over) {
    *error = "its shared-strings table (\"" + part + "\") holds more than the " + human_size(cap) +
             " of text read into memory for one workbook";
    return false;
  }
  return true;
}

bool is_cell(std::uint32_t t) { return t <= kShortIsst || t == kCellRString; }

// A worksheet part's records made rows: each cell's value shown as the cell shows it.
class SheetRecords {
 public:
  SheetRecords(const Parsed& parsed, std::uint64_t first_row, const RowSink& sink, std::vector<std::string>* merges,
               std::optional<std::string>* extent)
      : parsed_(parsed), first_row_(first_row), sink_(sink), merges_(merges), extent_(extent) {}

  static bool wanted(std::uint32_t t) { return is_cell(t) || t == kRowHdr || t == kWsDim || t == kMergeCell; }

  // False once the sink said stop.
  bool record(std::uint32_t type, std::string_view body) {
    Fields f(body);
    if (type == kRowHdr) {
      const std::uint32_t rw = f.u32();
      if (f.failed() || !flush()) return false;
      row_.number = std::uint64_t{rw} + 1;
      open_ = row_.number <= kMaxRows;
      return true;
    }
    if (type == kWsDim || type == kMergeCell) {
      const std::uint32_t r1 = f.u32(), r2 = f.u32(), c1 = f.u32(), c2 = f.u32();
      if (f.failed() || r1 > r2 || c1 > c2 || r2 >= kMaxRows || c2 >= kMaxColumns) return true;
      std::string range = column_name(c1) + std::to_string(r1 + 1);
      if (r1 != r2 || c1 != c2) range += ":" + column_name(c2) + std::to_string(r2 + 1);
      if (type == kWsDim) *extent_ = std::move(range);
      else if (merges_ != nullptr && merges_->size() < 10000) merges_->push_back(std::move(range));
      return true;
    }
    const bool is_short = type >= kShortBlank && type <= kShortIsst;
    const std::uint32_t column = is_short ? next_column_ : f.u32();
    const std::uint32_t style = f.u32() & 0xFFFFFF;
    if (f.failed()) return true;
    next_column_ = column + 1;
    if (!open_ || column >= kMaxColumns || (last_column_ && column <= *last_column_)) return true;
    const std::uint32_t cell_type = is_short ? short_to_cell(type) : type;
    if (cell_type == kCellBlank) return true;
    last_column_ = column;
    if (row_.number < first_row_) {  // before the page: only whether the row holds a value matters
      has_value_ = true;
      return true;
    }
    std::string text = value(cell_type, f, style);
    if (f.failed() || text.empty()) return true;
    has_value_ = true;
    add_cell(row_, Cell{column, std::move(text)});
    return true;
  }

  // The last row: false when the sink said stop.
  bool flush() {
    const bool go_on = !has_value_ || sink_(std::move(row_));
    row_ = Row{};
    last_column_.reset();
    next_column_ = 0;
    has_value_ = false;
    return go_on;
  }

 private:
  static std::uint32_t short_to_cell(std::uint32_t t) {
    switch (t) {
      case kShortRk: return kCellRk;
      case kShortError: return kCellError;
      case kShortBool: return kCellBool;
      case kShortReal: return kCellReal;
      case kShortSt: return kCellSt;
      case kShortIsst: return kCellIsst;
      default: return kCellBlank;
    }
  }

  std::string value(std::uint32_t type, Fields& f, std::uint32_t style) const {
    switch (type) {
      case kCellRk: return number(rk_number(f.u32()), style);
      case kCellReal:
      case kFmlaNum: return number(f.f64(), style);
      case kCellError:
      case kFmlaError: return excel_error_text(f.u8());
      case kCellBool:
      case kFmlaBool: return f.u8() != 0 ? "TRUE" : "FALSE";
      case kCellSt:
      case kFmlaString: return f.wide_string();
      case kCellRString: return rich_string(f);
      case kCellIsst: {
        const std::uint32_t i = f.u32();
        if (f.failed()) return {};
        if (i >= parsed_.strings.ends.size()) return "[no shared string " + std::to_string(i) + "]";
        return std::string(parsed_.strings.at(i));
      }
      default: return {};
    }
  }

  std::string number(double v, std::uint32_t style) const {
    const std::string_view code = style < parsed_.formats.size() ? std::string_view(parsed_.formats[style]) : "";
    return format_number(v, code, parsed_.date1904);
  }

  const Parsed& parsed_;
  std::uint64_t first_row_;
  const RowSink& sink_;
  std::vector<std::string>* merges_;
  std::optional<std::string>* extent_;
  Row row_;
  bool open_ = false;  // a row header met (cells before any belong to no row)
  bool has_value_ = false;
  std::optional<std::uint32_t> last_column_;
  std::uint32_t next_column_ = 0;
};

class XlsbWorkbook : public Workbook {
 public:
  bool open(package::ZipArchive& zip, std::size_t max_shared, std::string_view cache_key, std::string* error) {
    zip_ = &zip;
    auto& cache = package::PartCache::instance();
    const std::string name = "xlsb " + std::to_string(max_shared);
    if (!cache_key.empty()) parsed_ = cache.get_value<Parsed>(cache_key, name);
    if (parsed_ == nullptr) {
      auto read = std::make_shared<Parsed>();
      std::string shared;
      if (!parse_workbook(zip, read.get(), &shared, error)) return false;
      if (!shared.empty() && zip.find(shared) != nullptr &&
          !parse_shared_strings(zip, shared, max_shared, read.get(), error))
        return false;
      if (!cache_key.empty()) cache.put_value(cache_key, name, read, read->bytes());
      parsed_ = std::move(read);
    }
    sheets_ = parsed_->sheets;
    return true;
  }

  bool rows(std::size_t index, std::uint64_t first_row, const RowSink& sink, std::vector<std::string>* merges,
            std::string* error) override {
    SheetInfo& info = sheets_[index];
    if (info.part.empty() || zip_->find(info.part) == nullptr) {
      *error = "its sheet \"" + info.name + "\" has no worksheet part" +
               (info.part.empty() ? std::string() : " (\"" + info.part + "\" is missing)");
      return false;
    }
    SheetRecords sheet(*parsed_, first_row, sink, merges, &info.extent);
    RecordStream records(SheetRecords::wanted,
                         [&](std::uint32_t type, std::string_view body) { return sheet.record(type, body); },
                         kMaxRecord);
    if (!read_records(*zip_, info.part, records, error)) return false;
    if (!records.stopped()) sheet.flush();
    return true;
  }

 private:
  package::ZipArchive* zip_ = nullptr;
  std::shared_ptr<const Parsed> parsed_;
};

}  // namespace

std::unique_ptr<Workbook> open_xlsb(package::ZipArchive& zip, std::size_t max_shared_string_bytes, std::string* error,
                                    std::string_view cache_key) {
  auto book = std::make_unique<XlsbWorkbook>();
  if (!book->open(zip, max_shared_string_bytes, cache_key, error)) return nullptr;
  return book;
}

}  // namespace mcpread::readers::sheets
