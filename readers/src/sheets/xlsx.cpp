#include "sheets/xlsx.hpp"

#include "human_size.hpp"
#include "package/part_cache.hpp"
#include "package/parts.hpp"
#include "package/xml.hpp"
#include "sheets/number_format.hpp"
#include "sheets/row_index.hpp"
#include "sheets/row_skipper.hpp"
#include "sheets/xml_fragment.hpp"
#include "sheets/xlsx_sheet.hpp"
#include "sheets/xml_stream.hpp"

#include <algorithm>
#include <map>

namespace mcpread::readers::sheets {
namespace {

namespace xml = package::xml;

constexpr std::uint64_t kMaxPartBytes = 32ull << 20;  // workbook, relationships, styles: parsed whole

bool load(package::ZipArchive& zip, const std::string& part, pugi::xml_document* doc, std::string* error) {
  auto bytes = zip.read(part, error, kMaxPartBytes);
  return bytes && xml::parse(std::move(*bytes), part, doc, error);
}

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
      if (stream != nullptr) stream->stop();
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

class XlsxWorkbook : public Workbook {
 public:
  // From the readers' cache when `cache_key` (PartCache::key_of the file) names one parsed before.
  bool open(package::ZipArchive& zip, std::size_t max_shared, std::string_view cache_key, std::string* error) {
    zip_ = &zip;
    cache_key_ = cache_key;
    auto& cache = package::PartCache::instance();
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
  static bool parse(package::ZipArchive& zip, std::size_t max_shared, Parsed* out, std::string* error) {
    std::string workbook = "xl/workbook.xml";
    for (const auto& [id, rel] : package::rels_or_none(zip, "", kMaxPartBytes))
      if (!rel.external && rel.type == "officeDocument" && !rel.target.empty()) workbook = rel.target;
    pugi::xml_document doc;
    if (!load(zip, workbook, &doc, error)) return false;
    const pugi::xml_node root = xml::child(doc, "workbook");
    const std::string_view d1904 = xml::attr(xml::child(root, "workbookPr"), "date1904");
    out->date1904 = d1904 == "1" || d1904 == "true";
    const auto rels = package::rels_or_none(zip, workbook, kMaxPartBytes);
    std::string shared, styles;
    for (const auto& [id, rel] : rels) {
      if (rel.external) continue;
      if (rel.type == "sharedStrings") shared = rel.target;
      else if (rel.type == "styles") styles = rel.target;
    }
    for (pugi::xml_node s = xml::child(root, "sheets").first_child(); s; s = s.next_sibling()) {
      if (!xml::is(s, "sheet")) continue;
      SheetInfo info;
      info.name = xml::attr(s, "name");
      const std::string_view state = xml::attr(s, "state");
      info.hidden = state == "hidden" || state == "veryHidden";
      const auto rel = rels.find(xml::attr(s, "id"));
      if (rel != rels.end() && !rel->second.external) info.part = rel->second.target;
      out->sheets.push_back(std::move(info));
    }
    if (out->sheets.empty()) {
      *error = "its workbook names no sheet";
      return false;
    }
    if (!styles.empty() && zip.find(styles) != nullptr) read_styles(zip, styles, &out->formats);
    if (!shared.empty() && zip.find(shared) != nullptr) return read_shared(zip, shared, max_shared, &out->strings, error);
    return true;
  }

  static bool read_shared(package::ZipArchive& zip, const std::string& shared, std::size_t max_shared,
                          SharedStrings* out, std::string* error) {
    SharedStringsReader reader(out, max_shared);
    const auto over = [&] {
      *error = "its shared-strings table (\"" + shared + "\") holds more than the " + human_size(max_shared) +
               " of text read into memory for one workbook";
      return false;
    };
    // Held whole in the cache: pugixml reads it unless it is unusual (see XmlFragment::run_whole).
    if (const auto done = read_held_part(zip, shared, reader, [&] { return reader.over; }, error))
      return *done && reader.over ? over() : *done;
    auto stream = XmlStream::create(reader, shared, error);
    if (!stream) return false;
    reader.stream = stream.get();
    XmlStream* s = stream.get();
    if (!zip.stream(shared, [&](std::string_view chunk) { return s->feed(chunk, false); }, error)) return false;
    if (reader.over) return over();
    if (s->error().empty()) s->feed({}, true);
    if (!s->error().empty()) {
      *error = s->error();
      return false;
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
    // A part held whole in the cache is read through its row index (see row_index.hpp).
    if (const auto held = zip_->held(info.part, error)) {
      if (const auto rows_index = indexed(*held, info.part))
        return read_indexed(*held, *rows_index, info.part, first_row, reader, merges, &sheets_[index].extent, error);
    } else if (!error->empty()) {
      return false;
    }
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
  static void read_styles(package::ZipArchive& zip, const std::string& part, std::vector<std::string>* formats) {
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

  // The part's row index, from the cache or made now and kept there.
  std::shared_ptr<const RowIndex> indexed(const std::string& xml, const std::string& part) const {
    auto& cache = package::PartCache::instance();
    const std::string name = "xlsx rows " + part;
    if (cache_key_.empty()) return index_rows(xml, part);
    if (auto found = cache.get_value<RowIndex>(cache_key_, name)) return found;
    auto made = index_rows(xml, part);
    if (made != nullptr) cache.put_value(cache_key_, name, made, made->bytes());
    return made;
  }

  package::ZipArchive* zip_ = nullptr;
  std::string cache_key_;
  std::shared_ptr<const Parsed> parsed_;
};

}  // namespace

std::string xlsx_cache_name(std::size_t max_shared_string_bytes) {
  return "xlsx " + std::to_string(max_shared_string_bytes);
}

std::unique_ptr<Workbook> open_xlsx(package::ZipArchive& zip, std::size_t max_shared_string_bytes, std::string* error,
                                    std::string_view cache_key) {
  auto book = std::make_unique<XlsxWorkbook>();
  if (!book->open(zip, max_shared_string_bytes, cache_key, error)) return nullptr;
  return book;
}

}  // namespace mcpread::readers::sheets
