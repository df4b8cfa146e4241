// The spreadsheet reader of the Document Liberation Project's importers: Apple Numbers, Lotus
// 1-2-3, Quattro Pro, Microsoft Works spreadsheets and databases, StarCalc, read as XLSX and ODS
// are (each sheet a Markdown table; `pages` picks sheets, `offset`/`limit` page rows). The bytes
// decide, as each importer's own detection does: the DOS and Windows spreadsheets by their
// first record, Numbers and StarCalc by their package and name. The classic Macintosh
// spreadsheets, which only a resource fork or a file type names, are read with file_type="calc".
#include "mcpread/readers/registry.hpp"
#include "package/zip_head.hpp"
#include "resource_contents.hpp"
#include "revenge/revenge_sheets.hpp"

#include <algorithm>
#include <cstdint>
#include <span>

namespace mcpread::readers {

inline constexpr FileKind kCalcKind{"calc"};

namespace {

constexpr std::string_view kLotusMime = "application/vnd.lotus-1-2-3";
constexpr std::string_view kWorksMime = "application/vnd.ms-works";
constexpr std::string_view kQuattroMime = "application/x-quattropro";
constexpr std::string_view kNumbersMime = "application/vnd.apple.numbers";
constexpr std::string_view kStarCalcMime = "application/vnd.stardivision.calc";

std::uint16_t le16(std::span<const unsigned char> h, std::size_t at) {
  return static_cast<std::uint16_t>(h[at] | h[at + 1] << 8);
}

// The BOF record the DOS and Windows spreadsheets begin with (type 0, 2 bytes: the version), as
// libwps checks it: Lotus 1-2-3 and Works (WKS, WK1), Symphony, Quattro Pro (WQ1, WQ2, WB1-WB3);
// Lotus 1-2-3 for Windows (WK3, WK4, 123) has a 26-byte BOF; Works databases start 0x20 0x54.
std::optional<Sniffed> lotus_family(std::span<const unsigned char> h) {
  if (h.size() < 8) return std::nullopt;
  const std::uint16_t version = le16(h, 4);
  if (h[0] == 0x20 && h[1] == 0x54 && le16(h, 2) == 2) return Sniffed{kWorksMime, "Microsoft Works database (WDB)"};
  if ((h[0] != 0x00 && h[0] != 0xFF) || h[1] != 0x00) return std::nullopt;
  if (h[0] == 0x00 && le16(h, 2) == 0x1A && version >= 0x1000 && version <= 0x1005)
    return Sniffed{kLotusMime, "Lotus 1-2-3 spreadsheet (WK3, WK4 or 123)"};
  if (le16(h, 2) != 2) return std::nullopt;
  switch (version) {
    case 0x0404: return Sniffed{kLotusMime, "Lotus 1-2-3 or Microsoft Works spreadsheet (WKS)"};
    case 0x0405: return Sniffed{kLotusMime, "Lotus Symphony spreadsheet"};
    case 0x0406: return Sniffed{kLotusMime, "Lotus 1-2-3 spreadsheet (WK1)"};
    case 0x5120:
    case 0x5121: return Sniffed{kQuattroMime, "Quattro Pro spreadsheet (WQ1, WQ2)"};
    case 0x1001:
    case 0x1002:
    case 0x1007: return Sniffed{kQuattroMime, "Quattro Pro spreadsheet (WB1, WB2, WB3)"};
    default: return std::nullopt;
  }
}

bool numbers_folder(const zip_head::ZipHead& zip) {
  return std::any_of(zip.names.begin(), zip.names.end(),
                     [](std::string_view name) { return name.find(".numbers/") != std::string_view::npos; });
}

std::optional<Sniffed> sniff_calc(const SniffInput& in) {
  if (auto lotus = lotus_family(in.head)) return lotus;
  if (in.extension == "sdc" && in.zip().ole2) return Sniffed{kStarCalcMime, "StarCalc spreadsheet"};
  // Numbers 2 keeps index.xml, Numbers 3 and later Index/Document.iwa, as Pages does (the
  // word-processor reader tells them apart by name too).
  if (in.extension == "numbers" && in.zip().zip &&
      (in.zip().has("index.xml") || in.zip().has_prefix("Index/") || numbers_folder(in.zip())))
    return Sniffed{kNumbersMime, "Apple Numbers spreadsheet"};
  return std::nullopt;
}

sheets::SheetOptions calc_options(std::size_t max_output_bytes, const Wording& wording) {
  sheets::SheetOptions options;
  options.max_output_bytes = max_output_bytes;
  options.wording = wording;
  return options;
}

ReadOutcome read_calc(const ReaderCall& call) {
  sheets::SheetOptions options = calc_options(call.limits.text.max_output_bytes, call.request.wording);
  if (call.request.offset) options.offset = *call.request.offset;
  options.limit = call.request.limit;
  options.pages = call.request.pages;
  return revenge::read_revenge_sheet_file(call.file, options, call.cancel);
}

ResourceReadResult calc_resource(const ResourceCall& call) {
  return resource_from_outcome(
      revenge::read_revenge_sheet_file(call.file, calc_options(call.limits.text.max_output_bytes, call.wording),
                                       call.cancel),
      true);
}

// The words of the other spreadsheets' line: the description names them together.
std::string describe_calc(const ReadLimits&) { return "sheets as Markdown tables of what cells show."; }

}  // namespace

bool register_calc_reader(ReaderRegistry& registry) {
  return registry.add(Reader{
      .kind = kCalcKind,
      .article = "a spreadsheet",
      .noun = "Numbers, Lotus 1-2-3, Quattro Pro, Works and StarCalc spreadsheets",
      .describe = describe_calc,
      .counts = "row",
      .extensions = {{"wks", kLotusMime},
                     {"wk1", kLotusMime},
                     {"wk3", kLotusMime},
                     {"wk4", kLotusMime},
                     {"123", kLotusMime},
                     {"wq1", kQuattroMime},
                     {"wq2", kQuattroMime},
                     {"wb1", kQuattroMime},
                     {"wb2", kQuattroMime},
                     {"wb3", kQuattroMime},
                     {"wdb", kWorksMime},
                     {"sdc", kStarCalcMime},
                     {"numbers", kNumbersMime}},
      .sniff = sniff_calc,
      .also_serves = {FileKind::text},
      .read = read_calc,
      .resource = calc_resource,
  });
}

}  // namespace mcpread::readers
