// fuzz_dbf: the dBASE reader (dbf::read_dbf_bytes: the header and field checks, the record count
// against the file's size, the values of each type, the charset guess, memo blocks of the .dbt
// and .fpt layouts, and the spreadsheet tables) on arbitrary input. The first two bytes say how
// many of the last bytes are the memo file and which .cpg text goes with the table; the rest is
// the table. Each input is read twice: with the defaults, and with a small output cap and an
// offset/limit picked from a hash of the input.
//
// Checked: every text block is valid UTF-8; an error is one text block; an answer names its
// sheet; next_offset, when given, lies past the offset asked for.
//
// Readers fuzzed: dbf.
#include "dbf/dbf_table.hpp"
#include "fuzz_check.hpp"
#include "reader_checks.hpp"

#include <cstddef>
#include <cstdint>
#include <algorithm>
#include <string_view>

namespace {

using mcpread::fuzz::check;
using mcpread::fuzz::check_blocks;
using mcpread::fuzz::fnv1a;
namespace readers = mcpread::readers;

void check_outcome(const readers::ReadOutcome& o, std::uint64_t offset) {
  if (!check_blocks(o)) return;
  check(o.meta.at("sheets").get<std::uint64_t>() == 1, "an answer names its one sheet");
  if (o.meta.contains("next_offset"))
    check(o.meta.at("next_offset").get<std::uint64_t>() > offset, "next_offset lies past the offset asked for");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  const std::string_view rest(reinterpret_cast<const char*>(data + 2), size - 2);
  const std::size_t memo_size = std::min<std::size_t>(rest.size(), std::size_t{data[0]} * 16);
  const std::string_view table = rest.substr(0, rest.size() - memo_size);
  const std::string_view memo = rest.substr(rest.size() - memo_size);
  constexpr std::string_view kCpgs[] = {"", "UTF-8", "866", "88595", "no such charset"};
  const std::string_view cpg = kCpgs[data[1] % 5];
  const std::uint32_t h = fnv1a(data, size);
  const readers::CancelToken never;
  readers::sheets::SheetOptions defaults;
  constexpr std::string_view name = "/fuzz/t.dbf";  // the table's version byte picks the memo's layout
  check_outcome(readers::dbf::read_dbf_bytes(table, name, memo, cpg, defaults, never), 1);
  readers::sheets::SheetOptions tight = defaults;
  tight.max_output_bytes = std::size_t{700} << (h & 3);
  tight.offset = 1 + (h >> 2) % 4;
  if ((h >> 4) % 3 != 0) tight.limit = (h >> 4) % 3;
  check_outcome(readers::dbf::read_dbf_bytes(table, name, memo, cpg, tight, never), tight.offset);
  return 0;
}
