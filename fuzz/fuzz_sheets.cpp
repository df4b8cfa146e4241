// fuzz_sheets: the XLSX and ODS readers on arbitrary input. The first byte picks what the rest
// is: 0 a whole XLSX package, 1 a whole ODS package (zip-level mutations), 2 the worksheet XML,
// 3 the shared strings and 4 the styles of an XLSX built here around it, 5 the content.xml of an
// ODS (XML-level mutations: the SAX handlers, references, repeats, spans, number formats,
// nesting, entities). Each input is read twice: with the defaults, and with a small output cap,
// `pages` and an offset/limit picked from a hash of the input.
//
// Checked: every text block is valid UTF-8; an error is one text block; an answer names its
// sheets; next_offset, when given, lies past the offset asked for. And for XLSX, the rows read
// through the row index (the worksheet parts held in the parts cache, parsed with pugixml) are
// the rows streamed through libxml2, whenever the streamed read succeeds.
//
// Readers fuzzed: xlsx, ods.
#include "fuzz_check.hpp"
#include "reader_checks.hpp"
#include "mcpread/readers/utf8.hpp"
#include "package/part_cache.hpp"
#include "package/zip_archive.hpp"
#include "sheets/reader.hpp"
#include "sheets/xlsx.hpp"
#include "stored_zip.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>

namespace {

using mcpread::fuzz::check;
using mcpread::fuzz::check_blocks;
using mcpread::fuzz::fnv1a;
using mcpread::fuzz::stored_zip;
namespace readers = mcpread::readers;
namespace sheets = mcpread::readers::sheets;

constexpr std::string_view kRels =
    "<Relationships><Relationship Id=\"rId1\" Type=\"x/worksheet\" Target=\"worksheets/sheet1.xml\"/>"
    "<Relationship Id=\"rId2\" Type=\"x/sharedStrings\" Target=\"sharedStrings.xml\"/>"
    "<Relationship Id=\"rId3\" Type=\"x/styles\" Target=\"styles.xml\"/></Relationships>";
constexpr std::string_view kWorkbook =
    "<workbook><sheets><sheet name=\"S\" r:id=\"rId1\"/><sheet name=\"H\" state=\"hidden\" r:id=\"rId1\"/></sheets></workbook>";
constexpr std::string_view kSheet =
    "<worksheet><sheetData><row r=\"1\"><c r=\"A1\" t=\"s\"><v>0</v></c><c r=\"B1\" s=\"1\"><v>45292.25</v></c></row>"
    "<row r=\"3\"><c r=\"C3\" s=\"2\"><v>-1234.5</v></c></row></sheetData>"
    "<mergeCells><mergeCell ref=\"A1:B1\"/></mergeCells></worksheet>";
constexpr std::string_view kShared = "<sst><si><t>a|b</t></si><si><r><t>x</t></r><rPh><t>y</t></rPh></si></sst>";
constexpr std::string_view kStyles =
    "<styleSheet><numFmts><numFmt numFmtId=\"164\" formatCode=\"#,##0.00;[Red]\\(0.0\\)\"/></numFmts>"
    "<cellXfs><xf numFmtId=\"0\"/><xf numFmtId=\"22\"/><xf numFmtId=\"164\"/></cellXfs></styleSheet>";

void check_outcome(const readers::ReadOutcome& o, std::uint64_t offset) {
  if (!check_blocks(o)) return;
  check(o.meta.at("sheets").get<std::uint64_t>() >= 1, "an answer names its sheets");
  if (o.meta.contains("next_offset"))
    check(o.meta.at("next_offset").get<std::uint64_t>() > offset, "next_offset lies past the offset asked for");
}

// Every sheet's rows from `first_row` on, as text, and whether each sheet was read; through the
// parts cache (and so the row index) when `cached`.
std::string rows_of(std::string_view bytes, std::uint64_t first_row, bool cached, bool* all_read) {
  std::string error;
  auto zip = mcpread::readers::package::ZipArchive::open_memory(bytes, {}, &error);
  if (!zip) return "no zip";
  const std::string key = cached ? "fuzz" : "";
  if (cached) zip->cache_parts(key);
  auto book = sheets::open_xlsx(*zip, 1 << 16, &error, key);
  if (!book) return "no book";
  std::string out;
  *all_read = true;
  for (std::size_t i = 0; i < book->sheets().size(); ++i) {
    std::vector<std::string> merges;
    const bool ok = book->rows(i, first_row, [&](sheets::Row&& row) {
      out += "\n" + std::to_string(row.number) + (row.cut ? " cut" : "") + ":";
      for (const auto& c : row.cells) out += " " + std::to_string(c.column) + "=" + c.text;
      return out.size() < (1u << 20);
    }, &merges, &error);
    *all_read = *all_read && ok;
    out += ok ? "\n[read]" : "\n[error]";
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string_view rest(reinterpret_cast<const char*>(data + 1), size - 1);
  const unsigned mode = data[0] % 6;
  std::string package;
  if (mode >= 2 && mode <= 4)
    package = stored_zip({{"xl/workbook.xml", kWorkbook},
                          {"xl/_rels/workbook.xml.rels", kRels},
                          {"xl/worksheets/sheet1.xml", mode == 2 ? rest : kSheet},
                          {"xl/sharedStrings.xml", mode == 3 ? rest : kShared},
                          {"xl/styles.xml", mode == 4 ? rest : kStyles}});
  else if (mode == 5)
    package = stored_zip({{"mimetype", "application/vnd.oasis.opendocument.spreadsheet"}, {"content.xml", rest}});
  const std::string_view bytes = mode < 2 ? rest : std::string_view(package);
  const sheets::Format format = mode == 1 || mode == 5 ? sheets::Format::ods : sheets::Format::xlsx;

  const std::uint32_t h = fnv1a(data, size);
  const readers::CancelToken never;
  sheets::SheetOptions defaults;
  check_outcome(sheets::read_spreadsheet_bytes(bytes, "/fuzz/book", format, defaults, never), 1);
  sheets::SheetOptions tight = defaults;
  tight.max_output_bytes = std::size_t{700} << (h & 3);
  tight.offset = 1 + (h >> 2) % 3;
  if ((h >> 4) % 3 != 0) tight.limit = (h >> 4) % 3;
  tight.pages = (h >> 6) % 3 == 0 ? "2" : (h >> 6) % 3 == 1 ? "S" : "";
  tight.max_shared_string_bytes = 1 << 12;
  check_outcome(sheets::read_spreadsheet_bytes(bytes, "/fuzz/book", format, tight, never), tight.offset);
  if (format == sheets::Format::xlsx) {
    // libxml2 refuses some bytes pugixml reads (an unbound prefix, a control character, bytes
    // that are not UTF-8): only a streamed read that succeeds says what the index path must give.
    bool streamed_ok = false, indexed_ok = false;
    const std::string streamed = rows_of(bytes, tight.offset, false, &streamed_ok);
    const std::string indexed = rows_of(bytes, tight.offset, true, &indexed_ok);
    mcpread::readers::package::PartCache::instance().release();
    if (streamed_ok) check(indexed_ok && indexed == streamed, "the row index gives the rows streaming gives");
  }
  return 0;
}
