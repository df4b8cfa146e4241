// fuzz_xls: the XLS reader (libfreexl's cells in the spreadsheet tables) on arbitrary input. The
// first byte picks what the rest is: 0 a whole file (compound-file and BIFF2-4 mutations), 1 a
// BIFF8 stream put in a compound file built here (record-level mutations: BOF, BOUNDSHEET, SST,
// XF, DIMENSIONS, cells, FILEPASS). Each input is read twice: with the defaults, and with a small
// output cap, `pages` and an offset/limit picked from a hash of the input. libfreexl itself is
// loaded with dlopen, uninstrumented: what it does wrong shows as a crash or a failed property.
//
// Checked: every text block is valid UTF-8; an error is one text block; an answer names its
// sheets; next_offset, when given, lies past the offset asked for.
//
// Readers fuzzed: xls.
#include "fuzz_check.hpp"
#include "reader_checks.hpp"
#include "sheets/reader.hpp"
#include "xls_fixtures.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace {

using mcpread::fuzz::check;
using mcpread::fuzz::check_blocks;
using mcpread::fuzz::fnv1a;
namespace readers = mcpread::readers;
namespace sheets = mcpread::readers::sheets;

constexpr std::size_t kMaxStream = 60000;  // what the compound file built here holds

void check_outcome(const readers::ReadOutcome& o, std::uint64_t offset) {
  if (!check_blocks(o)) return;
  check(o.meta.at("sheets").get<std::uint64_t>() >= 1, "an answer names its sheets");
  if (o.meta.contains("next_offset"))
    check(o.meta.at("next_offset").get<std::uint64_t>() > offset, "next_offset lies past the offset asked for");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const std::uint8_t mode = data[0] % 2;
  const std::string_view rest(reinterpret_cast<const char*>(data + 1), size - 1);
  const std::string bytes = mode == 0 ? std::string(rest)
                                      : mcpread::test::compound_file(std::string(rest.substr(0, kMaxStream)), "Workbook");
  const std::uint32_t h = fnv1a(data, size);
  const readers::CancelToken never;
  sheets::SheetOptions defaults;
  check_outcome(sheets::read_spreadsheet_bytes(bytes, "/fuzz/book.xls", sheets::Format::xls, defaults, never), 1);
  sheets::SheetOptions tight = defaults;
  tight.max_output_bytes = std::size_t{700} << (h & 3);
  tight.offset = 1 + (h >> 2) % 3;
  if ((h >> 4) % 3 != 0) tight.limit = (h >> 4) % 3;
  tight.pages = (h >> 6) % 3 == 0 ? "2" : (h >> 6) % 3 == 1 ? "S" : "";
  check_outcome(sheets::read_spreadsheet_bytes(bytes, "/fuzz/book.xls", sheets::Format::xls, tight, never),
                tight.offset);
  return 0;
}
