// fuzz_xlsb: the XLSB reader on arbitrary input. The first byte picks what the rest is: 0 a whole
// .xlsb package (zip-level mutations), 1 the worksheet records, 2 the workbook records, 3 the
// shared strings and 4 the styles of a workbook built here around it (record-level mutations:
// the variable-length headers, claimed sizes, strings, RK numbers, short cells, number formats).
// Each input is read twice: with the defaults, and with a small output cap, `pages` and an
// offset/limit picked from a hash of the input; and its record parser is fed the bytes in chunks
// of a size picked from the hash, which must give what one chunk gives.
//
// Checked: every text block is valid UTF-8; an error is one text block; an answer names its
// sheets; next_offset, when given, lies past the offset asked for; the records are the same
// however the bytes are cut.
//
// Readers fuzzed: xlsb.
#include "fuzz_check.hpp"
#include "reader_checks.hpp"
#include "sheets/reader.hpp"
#include "sheets/xlsb_records.hpp"
#include "stored_zip.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace {

using mcpread::fuzz::check;
using mcpread::fuzz::check_blocks;
using mcpread::fuzz::fnv1a;
using mcpread::fuzz::stored_zip;
namespace readers = mcpread::readers;
namespace sheets = mcpread::readers::sheets;
namespace xlsb = mcpread::readers::sheets::xlsb;

constexpr std::string_view kRels =
    "<Relationships><Relationship Id=\"rId1\" Type=\"x/worksheet\" Target=\"worksheets/sheet1.bin\"/>"
    "<Relationship Id=\"rId2\" Type=\"x/sharedStrings\" Target=\"sharedStrings.bin\"/>"
    "<Relationship Id=\"rId3\" Type=\"x/styles\" Target=\"styles.bin\"/></Relationships>";
// BrtBundleSh "S" (rId1) and a hidden "H" (rId1); BrtWbProp with the 1904 flag clear.
constexpr std::string_view kWorkbook{
    "\x99\x01\x0C\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"
    "\x9C\x01\x1A\x00\x00\x00\x00\x01\x00\x00\x00\x04\x00\x00\x00r\0I\0d\0001\0\x01\x00\x00\x00S\0"
    "\x9C\x01\x1A\x01\x00\x00\x00\x02\x00\x00\x00\x04\x00\x00\x00r\0I\0d\0001\0\x01\x00\x00\x00H\0",
    15 + 29 + 29};
// A row 1 with an ISST 0 in A, an RK 42 in B of style 1, a real in C of style 2; a short cell after;
// a merged A1:B1.
constexpr std::string_view kSheet{
    "\x00\x11\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"
    "\x07\x0C\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"
    "\x02\x0C\x01\x00\x00\x00\x01\x00\x00\x00\xAA\x00\x00\x00"
    "\x05\x10\x02\x00\x00\x00\x02\x00\x00\x00\x00\x00\x00\x00\x00\x4A\x93\xC0"
    "\x0D\x08\x00\x00\x00\x00\x0B\x00\x00\x00"
    "\xB0\x01\x10\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x01\x00\x00\x00",
    19 + 14 + 14 + 18 + 10 + 19};
// Two BrtSSTItem: "a|b" and "x".
constexpr std::string_view kShared{
    "\x13\x0B\x00\x03\x00\x00\x00\x61\x00\x7C\x00\x62\x00"
    "\x13\x07\x00\x01\x00\x00\x00\x78\x00",
    13 + 9};
// BrtFmt 164 "0.0%", BrtBeginCellXfs, three BrtXF (General, 22, 164), BrtEndCellXfs.
constexpr std::string_view kStyles{
    "\x2C\x0E\xA4\x00\x04\x00\x00\x00\x30\x00\x2E\x00\x30\x00\x25\x00"
    "\xE9\x04\x00"
    "\x2F\x10\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"
    "\x2F\x10\x00\x00\x16\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"
    "\x2F\x10\x00\x00\xA4\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"
    "\xEA\x04\x00",
    16 + 3 + 18 * 3 + 3};

void check_outcome(const readers::ReadOutcome& o, std::uint64_t offset) {
  if (!check_blocks(o)) return;
  check(o.meta.at("sheets").get<std::uint64_t>() >= 1, "an answer names its sheets");
  if (o.meta.contains("next_offset"))
    check(o.meta.at("next_offset").get<std::uint64_t>() > offset, "next_offset lies past the offset asked for");
}

// The records of `bytes` fed in chunks of `chunk` bytes, as text.
std::string records_of(std::string_view bytes, std::size_t chunk) {
  std::string out;
  xlsb::RecordStream records([](std::uint32_t t) { return t % 3 != 0; },
                             [&](std::uint32_t type, std::string_view body) {
                               out += std::to_string(type) + ":" + std::string(body) + ";";
                               return out.size() < (1u << 20);
                             },
                             1u << 12);
  for (std::size_t at = 0; at < bytes.size() && !records.stopped(); at += chunk) records.feed(bytes.substr(at, chunk));
  const bool finished = records.finish();
  return out + (finished ? "[end]" : "[" + records.error() + "]");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string_view rest(reinterpret_cast<const char*>(data + 1), size - 1);
  const unsigned mode = data[0] % 5;
  std::string package;
  if (mode >= 1)
    package = stored_zip({{"xl/workbook.bin", mode == 2 ? rest : kWorkbook},
                          {"xl/_rels/workbook.bin.rels", kRels},
                          {"xl/worksheets/sheet1.bin", mode == 1 ? rest : kSheet},
                          {"xl/sharedStrings.bin", mode == 3 ? rest : kShared},
                          {"xl/styles.bin", mode == 4 ? rest : kStyles}});
  const std::string_view bytes = mode == 0 ? rest : std::string_view(package);

  const std::uint32_t h = fnv1a(data, size);
  const readers::CancelToken never;
  sheets::SheetOptions defaults;
  check_outcome(sheets::read_spreadsheet_bytes(bytes, "/fuzz/book", sheets::Format::xlsb, defaults, never), 1);
  sheets::SheetOptions tight = defaults;
  tight.max_output_bytes = std::size_t{700} << (h & 3);
  tight.offset = 1 + (h >> 2) % 3;
  if ((h >> 4) % 3 != 0) tight.limit = (h >> 4) % 3;
  tight.pages = (h >> 6) % 3 == 0 ? "2" : (h >> 6) % 3 == 1 ? "S" : "";
  tight.max_shared_string_bytes = 1 << 12;
  check_outcome(sheets::read_spreadsheet_bytes(bytes, "/fuzz/book", sheets::Format::xlsb, tight, never), tight.offset);
  check(records_of(rest, 1 + (h >> 8) % 7) == records_of(rest, rest.size() + 1),
        "the records are the same however the bytes are cut");
  return 0;
}
