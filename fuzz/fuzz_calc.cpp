// fuzz_calc: the spreadsheet reader of the importers' plugin (revenge::read_revenge_sheet_bytes:
// the importers over the bytes in a child process, the JSON workbook it sends back, the sheets'
// rendering) on arbitrary input, read twice: with the defaults, and with a small output cap,
// `pages` and an offset/limit picked from a hash of the input. The importers crash and loop on
// some damaged files; in the child, those come back as refusals, and the child's coverage does
// not reach the fuzzer. An input that starts with '{' is also given to sheets_from_plugin_json,
// the parent's reading of the child's answer, whose workbook is then rendered: it must refuse
// rows and columns out of order or out of range without throwing.
//
// Checked: every text block is valid UTF-8; an error is one text block; an answer names its
// sheets; next_offset, when given, lies past the offset asked for.
//
// Readers fuzzed: calc.
#include "fuzz_check.hpp"
#include "mcpread/readers/cancel.hpp"
#include "reader_checks.hpp"
#include "revenge/revenge_sheets.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

namespace {

using mcpread::fuzz::check;
using mcpread::fuzz::check_blocks;
using mcpread::fuzz::fnv1a;
namespace readers = mcpread::readers;
namespace sheets = mcpread::readers::sheets;

void check_outcome(const readers::ReadOutcome& o, std::uint64_t offset) {
  if (!check_blocks(o)) return;
  check(o.meta.contains("sheets"), "an answer counts its sheets");
  if (o.meta.contains("next_offset"))
    check(o.meta.at("next_offset").get<std::uint64_t>() > offset, "next_offset lies past the offset asked for");
}

sheets::SheetOptions tight(std::uint64_t h) {
  sheets::SheetOptions options;
  options.max_output_bytes = 2048 + h % 4096;
  options.offset = 1 + (h >> 12) % 40;
  options.limit = 1 + (h >> 20) % 10;
  options.pages = (h >> 28) % 2 == 0 ? "1" : "1-2";
  return options;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const bool plugin_found = setenv("MCP_READ_PDF_PLUGIN_DIR", MCPREAD_FUZZ_PLUGIN_DIR, 1) == 0;
  (void)plugin_found;
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  const std::uint64_t h = fnv1a(data, size);
  if (bytes.starts_with("{")) {
    std::string format;
    if (auto book = readers::revenge::sheets_from_plugin_json(bytes, &format)) {
      for (const sheets::SheetOptions& options : {sheets::SheetOptions{}, tight(h)})
        check_outcome(sheets::render_workbook(*book, "fuzz.wk1", format, "a spreadsheet", options,
                                              readers::CancelToken{}, nlohmann::json::object()),
                      options.offset);
    }
    return 0;
  }
  for (const sheets::SheetOptions& options : {sheets::SheetOptions{}, tight(h)})
    check_outcome(readers::revenge::read_revenge_sheet_bytes(bytes, "fuzz.wk1", options, readers::CancelToken{}),
                  options.offset);
  return 0;
}
