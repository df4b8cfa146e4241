#include "sheets/xlsx.hpp"

#include "human_size.hpp"
#include "office/part_cache.hpp"
#include "office/xml.hpp"
#include "sheets/number_format.hpp"
#include "sheets/row_skipper.hpp"
#include "sheets/xml_stream.hpp"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <map>

namespace mcpread::readers::sheets {
namespace {

namespace xml = office::xml;

constexpr std::uint64_t kMaxPartBytes = 32ull << 20;  // workbook, relationships, styles: parsed whole
constexpr std::size_t kMaxCellText = 1 << 20;         // text gathered for one cell; shown cut anyway

bool load(office::ZipArchive& zip, const std::string& part, pugi::xml_document* doc, std::string* error) {
  auto bytes = zip.read(part, error, kMaxPartBytes);
  return bytes && xml::parse(std::move(*bytes), part, doc, error);
}

std::string folder_of(std::string_view part) {
  const auto slash = part.rfind('/');
  return slash == std::string_view::npos ? std::string() : std::string(part.substr(0, slash + 1));
}

// A part's relationships: Id -> (Type, resolved target).
std::map<std::string, std::pair<std::string, std::string>, std::less<>> relationships(office::ZipArchive& zip,
                                                                                     std::string_view part) {
  std::map<std::string, std::pair<std::string, std::string>, std::less<>> out;
  const std::string folder = folder_of(part);
  const std::string rels = folder + "_rels/" + std::string(part.substr(folder.size())) + ".rels";
  if (zip.find(rels) == nullptr) return out;
  pugi::xml_document doc;
  std::string ignored;
  if (!load(zip, rels, &doc, &ignored)) return out;
  for (pugi::xml_node r = xml::child(doc, "Relationships").first_child(); r; r = r.next_sibling())
    if (xml::is(r, "Relationship") && xml::attr(r, "TargetMode") != "External")
      out[std::string(xml::attr(r, "Id"))] = {std::string(xml::attr(r, "Type")),
                                              office::resolve_part(folder, xml::attr(r, "Target"))};
  return out;
}

// An integer as General writes it: no leading zero, sign or exponent, at most 15 digits.
bool plain_integer(std::string_view v) {
  const bool negative = !v.empty() && v.front() == '-';
  const std::string_view digits = v.substr(negative ? 1 : 0);
  if (digits.empty() || digits.size() > 15 || (digits.front() == '0' && (digits.size() > 1 || negative))) return false;
  return std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; });
}

bool ends_with_type(std::string_view type, std::string_view name) {
  return type.size() > name.size() && type.ends_with(name) && type[type.size() - name.size() - 1] == '/';
}

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

class SharedStringsReader : public XmlHandler {
 public:
  SharedStringsReader(SharedStrings* out, std::size_t cap) : out_(out), cap_(cap) {}
  XmlStream* stream = nullptr;
  bool over = false;
  void start(std::string_view local, const XmlAttrs&) override {
    if (local == "si") in_si_ = true;
    else if (local == "rPh") in_phonetic_ = true;  // ruby text of East Asian strings: not shown
    else if (local == "t" && in_si_ && !in_phonetic_) in_t_ = true;
  }
  void end(std::string_view local) override {
    if (local == "t") in_t_ = false;
    else if (local == "rPh") in_phonetic_ = false;
    else if (local == "si" && in_si_) {
      in_si_ = false;
      out_->ends.push_back(static_cast<std::uint32_t>(out_->text.size()));
      check();
    }
  }
  void text(std::string_view chunk) override {
    if (!in_t_) return;
    out_->text += chunk;
    check();
  }

 private:
  void check() {
    if (out_->text.size() + 4 * out_->ends.size() > cap_ || out_->text.size() >= UINT32_MAX) {
      over = true;
      stream->stop();
    }
  }
  SharedStrings* out_;
  std::size_t cap_;
  bool in_si_ = false, in_t_ = false, in_phonetic_ = false;
};

// What opening a workbook makes of its workbook, styles and shared-strings parts: the same for
// every call on the same file, so kept in the readers' cache (a model pages through a workbook in
// several calls, and each would otherwise parse the shared strings again).
struct Parsed {
  bool date1904 = false;
  SharedStrings strings;
  std::vector<std::string> formats;  // each cell style's number format code, by the cell's `s`
  std::vector<SheetInfo> sheets;     // extents unknown: learnt per call while streaming

  std::size_t bytes() const {
    std::size_t n = sizeof(*this) + strings.text.capacity() + 4 * strings.ends.capacity();
    for (const auto& f : formats) n += sizeof(f) + f.capacity();
    for (const auto& i : sheets) n += sizeof(i) + i.name.capacity() + i.part.capacity();
    return n;
  }
};

class SheetReader : public XmlHandler {
 public:
  SheetReader(const SharedStrings& strings, const std::vector<std::string>& formats, bool date1904,
              std::uint64_t first_row, const RowSink& sink, std::vector<std::string>* merges,
              std::optional<std::string>* extent)
      : strings_(strings), formats_(formats), date1904_(date1904), first_row_(first_row), sink_(sink), merges_(merges),
        extent_(extent) {}
  XmlStream* stream = nullptr;

  // A row before first_row, cut out by RowSkipper: only its number and whether it has a value.
  bool skipped(std::uint64_t number, bool has_value) {
    row_.number = number;
    if (!has_value || sink_(Row{number, {}})) return true;
    stream->stop();
    return false;
  }

  void start(std::string_view local, const XmlAttrs& a) override {
    if (local == "row") {
      std::uint64_t r = 0;
      const std::string_view n = a.get("r");
      const auto got = std::from_chars(n.data(), n.data() + n.size(), r);
      row_.number = got.ec == std::errc() && r > 0 && r <= kMaxRows ? r : row_.number + 1;
      row_.cells.clear();
      row_.bytes = 0;
      row_.cut = false;
      column_ = UINT32_MAX;
      in_row_ = true;
      skipping_ = row_.number < first_row_;
      skipped_value_ = false;
    } else if (skipping_) {
      skipped_value_ = skipped_value_ || local == "v" || local == "is";
    } else if (local == "c" && in_row_) {
      std::uint32_t col = 0;
      std::uint64_t r = 0;
      column_ = parse_reference(a.get("r"), &col, &r) ? col : column_ + 1;  // from UINT32_MAX: 0
      type_ = a.get("t");
      style_ = 0;
      const std::string_view s = a.get("s");
      std::from_chars(s.data(), s.data() + s.size(), style_);
      value_.clear();
      in_cell_ = true;
    } else if (in_cell_ && (local == "v" || (local == "t" && in_inline_ && !in_phonetic_))) {
      capture_ = true;
    } else if (in_cell_ && local == "is") {
      in_inline_ = true;
    } else if (local == "rPh") {
      in_phonetic_ = true;
    } else if (local == "dimension" && !in_row_) {
      const std::string_view ref = a.get("ref");
      if (!ref.empty() && ref.size() < 40) *extent_ = std::string(ref);
    } else if (local == "mergeCell" && merges_ != nullptr && merges_->size() < 1000 && a.get("ref").size() < 40) {
      merges_->emplace_back(a.get("ref"));
    }
  }
  void end(std::string_view local) override {
    if (local == "v" || local == "t") {
      capture_ = false;
    } else if (local == "is") {
      in_inline_ = false;
    } else if (local == "rPh") {
      in_phonetic_ = false;
    } else if (local == "c" && in_cell_) {
      in_cell_ = false;
      if (column_ >= kMaxColumns) return;  // a reference past XFD: no column shows it
      std::string shown = show();
      if (!shown.empty()) add_cell(row_, Cell{column_, std::move(shown)});
    } else if (local == "row" && in_row_) {
      in_row_ = false;
      if (skipping_) {
        skipping_ = false;
        // Its number only (a row with a <v> may still show nothing: an empty string).
        if (skipped_value_ && !sink_(Row{row_.number, {}})) stream->stop();
        return;
      }
      if (row_.cells.empty()) return;
      const auto by_column = [](const Cell& x, const Cell& y) { return x.column < y.column; };
      if (!std::is_sorted(row_.cells.begin(), row_.cells.end(), by_column))  // as writers write them
        std::sort(row_.cells.begin(), row_.cells.end(), by_column);
      if (!sink_(std::move(row_))) stream->stop();
      row_.cells.clear();
    }
  }
  void text(std::string_view chunk) override {
    if (capture_ && value_.size() < kMaxCellText) value_ += chunk.substr(0, kMaxCellText - value_.size());
  }

 private:
  std::string show() const {
    if (type_ == "s") {
      std::size_t i = 0;
      const auto got = std::from_chars(value_.data(), value_.data() + value_.size(), i);
      if (got.ec != std::errc() || value_.empty()) return value_.empty() ? std::string() : "[no shared string " + value_ + "]";
      if (i >= strings_.ends.size()) return "[no shared string " + value_ + "]";
      return std::string(strings_.at(i));
    }
    if (type_ == "b") return value_ == "1" ? "TRUE" : value_ == "0" ? "FALSE" : value_;
    if (type_ == "str" || type_ == "inlineStr" || type_ == "e" || type_ == "d") return value_;
    if (value_.empty()) return {};
    const std::string_view code = style_ < formats_.size() ? std::string_view(formats_[style_]) : std::string_view();
    // Most numbers are integers shown as General, which shows them as written: no conversion.
    if (plain_integer(value_) && is_general_format(code)) return value_;
    char* end = nullptr;
    const double v = std::strtod(value_.c_str(), &end);
    if (end == value_.c_str() || *end != '\0') return value_;
    return format_number(v, code, date1904_);
  }

  const SharedStrings& strings_;
  const std::vector<std::string>& formats_;
  bool date1904_;
  std::uint64_t first_row_;
  const RowSink& sink_;
  std::vector<std::string>* merges_;
  std::optional<std::string>* extent_;
  Row row_;
  std::uint32_t column_ = UINT32_MAX;
  std::string type_;
  std::size_t style_ = 0;
  std::string value_;
  bool in_row_ = false, in_cell_ = false, in_inline_ = false, in_phonetic_ = false, capture_ = false;
  bool skipping_ = false, skipped_value_ = false;
};

class XlsxWorkbook : public Workbook {
 public:
  // From the readers' cache when `cache_key` (PartCache::key_of the file) names one parsed before.
  bool open(office::ZipArchive& zip, std::size_t max_shared, std::string_view cache_key, std::string* error) {
    zip_ = &zip;
    auto& cache = office::PartCache::instance();
    const std::string name = xlsx_cache_name(max_shared);
    if (!cache_key.empty()) parsed_ = cache.get_value<Parsed>(cache_key, name);
    if (parsed_ == nullptr) {
      auto read = std::make_shared<Parsed>();
      if (!parse(zip, max_shared, read.get(), error)) return false;
      if (!cache_key.empty()) cache.put_value(cache_key, name, read, read->bytes());
      parsed_ = std::move(read);
    }
    sheets_ = parsed_->sheets;
    return true;
  }

 private:
  static bool parse(office::ZipArchive& zip, std::size_t max_shared, Parsed* out, std::string* error) {
    std::string workbook = "xl/workbook.xml";
    for (const auto& [id, rel] : relationships(zip, "")) {
      (void)id;
      if (ends_with_type(rel.first, "officeDocument") && !rel.second.empty()) workbook = rel.second;
    }
    pugi::xml_document doc;
    if (!load(zip, workbook, &doc, error)) return false;
    const pugi::xml_node root = xml::child(doc, "workbook");
    const std::string_view d1904 = xml::attr(xml::child(root, "workbookPr"), "date1904");
    out->date1904 = d1904 == "1" || d1904 == "true";
    const auto rels = relationships(zip, workbook);
    std::string shared, styles;
    for (const auto& [id, rel] : rels) {
      (void)id;
      if (ends_with_type(rel.first, "sharedStrings")) shared = rel.second;
      else if (ends_with_type(rel.first, "styles")) styles = rel.second;
    }
    for (pugi::xml_node s = xml::child(root, "sheets").first_child(); s; s = s.next_sibling()) {
      if (!xml::is(s, "sheet")) continue;
      SheetInfo info;
      info.name = xml::attr(s, "name");
      const std::string_view state = xml::attr(s, "state");
      info.hidden = state == "hidden" || state == "veryHidden";
      const auto rel = rels.find(xml::attr(s, "id"));
      if (rel != rels.end()) info.part = rel->second.second;
      out->sheets.push_back(std::move(info));
    }
    if (out->sheets.empty()) {
      *error = "its workbook names no sheet";
      return false;
    }
    if (!styles.empty() && zip.find(styles) != nullptr) read_styles(zip, styles, &out->formats);
    if (!shared.empty() && zip.find(shared) != nullptr) {
      SharedStringsReader reader(&out->strings, max_shared);
      XmlStream* stream = nullptr;
      auto run = XmlStream::create(reader, shared, error);
      if (!run) return false;
      reader.stream = run.get();
      stream = run.get();
      if (!zip.stream(shared, [&](std::string_view chunk) { return stream->feed(chunk, false); }, error)) return false;
      if (reader.over) {
        *error = "its shared-strings table (\"" + shared + "\") holds more than the " + human_size(max_shared) +
                 " of text read into memory for one workbook";
        return false;
      }
      if (stream->error().empty()) stream->feed({}, true);
      if (!stream->error().empty()) {
        *error = stream->error();
        return false;
      }
    }
    return true;
  }

 public:
  bool rows(std::size_t index, std::uint64_t first_row, const RowSink& sink, std::vector<std::string>* merges,
            std::string* error) override {
    const SheetInfo& info = sheets_[index];
    if (info.part.empty() || zip_->find(info.part) == nullptr) {
      *error = "its sheet \"" + info.name + "\" has no worksheet part" +
               (info.part.empty() ? std::string() : " (\"" + info.part + "\" is missing)");
      return false;
    }
    SheetReader reader(parsed_->strings, parsed_->formats, parsed_->date1904, first_row, sink, merges, &sheets_[index].extent);
    auto stream = XmlStream::create(reader, info.part, error);
    if (!stream) return false;
    reader.stream = stream.get();
    XmlStream* s = stream.get();
    if (first_row > 1) {
      // The rows before the page are cut out before libxml2 sees them (see row_skipper.hpp).
      RowSkipper skipper(
          first_row, info.part, [&](std::uint64_t n, bool has_value) { return reader.skipped(n, has_value); },
          [&](std::string_view bytes) { return s->feed(bytes, false); });
      if (!zip_->stream(info.part, [&](std::string_view chunk) { return skipper.feed(chunk); }, error)) return false;
      if (!skipper.error().empty()) {
        *error = skipper.error();
        return false;
      }
      if (!s->stopped_by_handler() && s->error().empty()) skipper.finish();
    } else if (!zip_->stream(info.part, [&](std::string_view chunk) { return s->feed(chunk, false); }, error)) {
      return false;
    }
    if (s->stopped_by_handler()) return true;
    if (s->error().empty()) s->feed({}, true);
    if (!s->error().empty()) {
      *error = s->error();
      return false;
    }
    return true;
  }

 private:
  // Each cell style's number format code, by the cell's `s` index.
  static void read_styles(office::ZipArchive& zip, const std::string& part, std::vector<std::string>* formats) {
    pugi::xml_document doc;
    std::string ignored;
    if (!load(zip, part, &doc, &ignored)) return;  // without styles, numbers show as General
    const pugi::xml_node root = xml::child(doc, "styleSheet");
    std::map<unsigned, std::string> custom;
    for (pugi::xml_node f = xml::child(root, "numFmts").first_child(); f; f = f.next_sibling())
      if (xml::is(f, "numFmt"))
        custom[static_cast<unsigned>(xml::small_int(xml::attr(f, "numFmtId"), 0))] = xml::attr(f, "formatCode");
    for (pugi::xml_node x = xml::child(root, "cellXfs").first_child(); x; x = x.next_sibling()) {
      if (!xml::is(x, "xf")) continue;
      const auto id = static_cast<unsigned>(xml::small_int(xml::attr(x, "numFmtId"), 0));
      const auto c = custom.find(id);
      formats->emplace_back(c != custom.end() ? c->second : std::string(builtin_format(id)));
    }
  }

  office::ZipArchive* zip_ = nullptr;
  std::shared_ptr<const Parsed> parsed_;
};

}  // namespace

std::string xlsx_cache_name(std::size_t max_shared_string_bytes) {
  return "xlsx " + std::to_string(max_shared_string_bytes);
}

std::unique_ptr<Workbook> open_xlsx(office::ZipArchive& zip, std::size_t max_shared_string_bytes, std::string* error,
                                    std::string_view cache_key) {
  auto book = std::make_unique<XlsxWorkbook>();
  if (!book->open(zip, max_shared_string_bytes, cache_key, error)) return nullptr;
  return book;
}

}  // namespace mcpread::readers::sheets
