// fuzz_csv: the CSV reader on arbitrary file contents. The input is the file: its charset and
// dialect are guessed, and it is read twice through read_csv, with the defaults and with a tight
// cap, offset and limit picked from a hash of the input (and a second time at that offset, when
// the first read left the record starts remembered). The record parser's quick skip is run
// against its full parse over the same bytes with each delimiter.
//
// Checked: every text block is valid UTF-8 and within the cap; an error is one text block; the
// rows shown lie between start_row and end_row and next_offset follows end_row; a read from the
// remembered record starts gives the same answer as the first; skip() and next() agree on where
// every record starts.
//
// Readers fuzzed: csv.
#include "csv/csv_reader.hpp"
#include "csv/dialect.hpp"
#include "csv/record_reader.hpp"
#include "csv/sources.hpp"
#include "fuzz_check.hpp"
#include "input_file.hpp"
#include "mcpread/readers/caches.hpp"
#include "reader_checks.hpp"


#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace {

using mcpread::fuzz::check;
using mcpread::fuzz::check_blocks;
using mcpread::fuzz::fnv1a;
namespace readers = mcpread::readers;
namespace csv = mcpread::readers::csv;

std::vector<std::uint64_t> record_starts(std::string_view bytes, char delimiter, bool skipping) {
  csv::StringSource source(bytes);
  csv::Dialect dialect;
  dialect.delimiter = delimiter;
  csv::RecordReader reader(source, dialect, 0);
  std::vector<std::uint64_t> starts;
  csv::Record record;
  for (;;) {
    const std::uint64_t at = reader.position();
    if ((skipping ? reader.skip() : reader.next(&record)) != csv::RecordReader::Got::record) break;
    starts.push_back(at);
  }
  return starts;
}

readers::ReadOutcome read(const readers::OpenedFile& file, const csv::CsvOptions& options) {
  const readers::ReadOutcome o = csv::read_csv(file, options, readers::CancelToken{});
  if (!check_blocks(o)) return o;
  check(o.blocks.size() == 1, "a table is one text block");
  check(std::get<readers::TextBlock>(o.blocks[0]).text.size() <= options.max_output_bytes,
        "the answer stays within the cap");
  if (o.meta.contains("start_row")) {
    const auto start = o.meta["start_row"].get<std::uint64_t>(), end = o.meta["end_row"].get<std::uint64_t>();
    check(start <= end, "rows are shown in order");
    check(start >= options.offset, "no row before the offset is shown");
    if (o.meta.contains("next_offset")) check(o.meta["next_offset"].get<std::uint64_t>() == end + 1, "the way on follows the last row");
    if (o.meta.contains("rows")) check(end <= o.meta["rows"].get<std::uint64_t>(), "no row past the count");
  }
  return o;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  for (const char d : {',', ';', '\t', '|'})
    check(record_starts(bytes, d, false) == record_starts(bytes, d, true), "skip() and next() agree on record starts");
  (void)csv::detect_dialect(bytes, "csv", true);

  const readers::OpenedFile file = mcpread::fuzz::open_input(data, size, "/fuzz/input.csv");

  readers::release_caches();  // each input starts with nothing remembered
  read(file, csv::CsvOptions{});
  const std::uint32_t h = fnv1a(data, size);
  csv::CsvOptions tight;
  tight.max_output_bytes = 2048 + h % 4096;
  tight.offset = 1 + (h >> 12) % 64;
  tight.limit = 1 + (h >> 20) % 16;
  tight.count_max_bytes = (h & 1) != 0 ? 0 : UINT64_MAX;
  const readers::ReadOutcome first = read(file, tight);
  const readers::ReadOutcome again = read(file, tight);
  check(first.meta == again.meta, "a read from remembered record starts gives the same answer");
  return 0;
}
