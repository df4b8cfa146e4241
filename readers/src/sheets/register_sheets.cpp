// The spreadsheet readers: XLSX, XLSB, ODS and XLS, each sheet a Markdown table of what its cells show;
// `pages` picks sheets, `offset`/`limit` page rows. Either also serves file_type="text" (the same
// tables: there is nothing else to leave out).
#include "mcpread/readers/registry.hpp"
#include "package/open.hpp"
#include "package/zip_head.hpp"
#include "resource_contents.hpp"
#include "sheets/reader.hpp"

namespace mcpread::readers {

inline constexpr FileKind kXlsxKind{"xlsx"};
inline constexpr FileKind kOdsKind{"ods"};
inline constexpr FileKind kXlsKind{"xls"};
inline constexpr FileKind kXlsbKind{"xlsb"};

namespace {

sheets::SheetOptions sheet_options(const ReadLimits& limits) {
  sheets::SheetOptions options;
  options.zip = package::zip_limits(limits);
  options.max_shared_string_bytes = static_cast<std::size_t>(limits.sheet_max_shared_strings_bytes);
  return options;
}

template <sheets::Format F>
ReadOutcome read_as_sheets(const ReaderCall& call) {
  sheets::SheetOptions options = sheet_options(call.limits);
  if (call.request.offset) options.offset = *call.request.offset;
  options.limit = call.request.limit;
  options.pages = call.request.pages;
  options.max_output_bytes = call.limits.text.max_output_bytes;  // text only: the cap of text answers
  options.wording = call.request.wording;
  return sheets::read_spreadsheet(call.file, F, options, call.cancel);
}

// As a resource: every sheet up to the text cap.
template <sheets::Format F>
ResourceReadResult sheets_resource(const ResourceCall& call) {
  sheets::SheetOptions options = sheet_options(call.limits);
  options.max_output_bytes = call.limits.text.max_output_bytes;
  options.wording = call.wording;
  return resource_from_outcome(sheets::read_spreadsheet(call.file, F, options, call.cancel), true);
}

std::string describe_sheets(const ReadLimits&) {
  return "sheets as Markdown tables of what cells show.";
}

const std::vector<ReaderOption> kSheetOptions = {
    limit_option<&ReadLimits::sheet_max_shared_strings_bytes>(
        "--sheet-max-shared-strings-bytes", "bytes of an XLSX's shared strings held in memory at most", 1 << 16,
        1ull << 31)};

constexpr std::string_view kXlsxMime = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
constexpr std::string_view kOdsMime = "application/vnd.oasis.opendocument.spreadsheet";

// An Excel package by its entries (xl/workbook.xml, or [Content_Types].xml with parts under xl/);
// an OLE2 compound file named .xlsx is an encrypted (or legacy) workbook: the reader says which.
std::optional<Sniffed> sniff_xlsx(const SniffInput& in) {
  const bool named = in.extension == "xlsx" || in.extension == "xlsm";
  const zip_head::ZipHead& z = in.zip();
  if (z.ole2 && named) return Sniffed{kXlsxMime, "OLE2 compound file (an encrypted or legacy Office document)"};
  if (!z.zip || z.has("xl/workbook.bin") || in.extension == "xlsb") return std::nullopt;  // XLSB's (below)
  constexpr std::string_view kName = "Microsoft Excel workbook (XLSX)";
  if (z.has("xl/workbook.xml") || z.ooxml("xl/")) return Sniffed{kXlsxMime, kName};
  if (named && z.has("[Content_Types].xml")) return Sniffed{kXlsxMime, kName, false};
  return std::nullopt;
}

constexpr std::string_view kXlsbMime = "application/vnd.ms-excel.sheet.binary.macroEnabled.main";

// An Excel binary workbook by its workbook part (xl/workbook.bin); a package named .xlsb whose
// first entries do not show it is taken for one (its reading says when it holds none).
std::optional<Sniffed> sniff_xlsb(const SniffInput& in) {
  const bool named = in.extension == "xlsb";
  const zip_head::ZipHead& z = in.zip();
  if (z.ole2 && named) return Sniffed{kXlsbMime, "OLE2 compound file (an encrypted or legacy Office document)"};
  constexpr std::string_view kName = "Microsoft Excel binary workbook (XLSB)";
  if (z.zip && z.has("xl/workbook.bin")) return Sniffed{kXlsbMime, kName};
  if (z.zip && named) return Sniffed{kXlsbMime, kName, false};
  return std::nullopt;
}

// An OpenDocument spreadsheet by the `mimetype` entry it stores first (a template too).
std::optional<Sniffed> sniff_ods(const SniffInput& in) {
  const zip_head::ZipHead& z = in.zip();
  if (z.ole2 && in.extension == "ods") return Sniffed{kOdsMime, "OLE2 compound file (an encrypted or legacy Office document)"};
  if (z.mimetype == kOdsMime || z.mimetype == "application/vnd.oasis.opendocument.spreadsheet-template")
    return Sniffed{kOdsMime, "OpenDocument spreadsheet"};
  return std::nullopt;
}

constexpr std::string_view kXlsMime = "application/vnd.ms-excel";

// By its name only: Word documents, PowerPoint presentations and Outlook messages are OLE2
// compound files too, and which one a file is shows only inside it (libfreexl says when it holds
// no workbook). The BIFF2-4 workbooks before OLE2 start with their BOF record.
std::optional<Sniffed> sniff_xls(const SniffInput& in) {
  if (in.extension != "xls" && in.extension != "xlt" && in.extension != "xla") return std::nullopt;
  if (in.zip().ole2) return Sniffed{kXlsMime, "Microsoft Excel 97-2003 workbook (OLE2 compound file)"};
  const auto& h = in.head;
  if (h.size() >= 4 && h[0] == 0x09 && (h[1] == 0x00 || h[1] == 0x02 || h[1] == 0x04) && h[3] == 0x00)
    return Sniffed{kXlsMime, "Microsoft Excel 2-4 workbook (BIFF)"};
  return std::nullopt;
}

}  // namespace

bool register_xlsx_reader(ReaderRegistry& registry) {
  return registry.add(Reader{
      .kind = kXlsxKind,
      .article = "an Excel workbook",
      .noun = "Excel workbooks",
      .describe = describe_sheets,
      .counts = "row",
      .extensions = {{"xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"},
                     {"xlsm", "application/vnd.ms-excel.sheet.macroEnabled.12"}},
      .sniff = sniff_xlsx,
      .also_serves = {FileKind::text},
      .options = kSheetOptions,
      .read = read_as_sheets<sheets::Format::xlsx>,
      .resource = sheets_resource<sheets::Format::xlsx>,
  });
}

bool register_xlsb_reader(ReaderRegistry& registry) {
  return registry.add(Reader{
      .kind = kXlsbKind,
      .article = "an Excel binary workbook",
      .noun = "Excel binary workbooks",
      .describe = describe_sheets,
      .counts = "row",
      // No file_type of its own: the tool list, which every conversation carries, has no byte
      // to spare for it (file_type="xlsx" reads an .xlsb as one, see sheets/reader.cpp).
      .selectable = false,
      .extensions = {{"xlsb", kXlsbMime}},
      .sniff = sniff_xlsb,
      .also_serves = {FileKind::text},
      .read = read_as_sheets<sheets::Format::xlsb>,
      .resource = sheets_resource<sheets::Format::xlsb>,
  });
}

bool register_ods_reader(ReaderRegistry& registry) {
  return registry.add(Reader{
      .kind = kOdsKind,
      .article = "an OpenDocument spreadsheet",
      .noun = "OpenDocument spreadsheets",
      .describe = describe_sheets,
      .counts = "row",
      .extensions = {{"ods", "application/vnd.oasis.opendocument.spreadsheet"}},
      .sniff = sniff_ods,
      .also_serves = {FileKind::text},
      .read = read_as_sheets<sheets::Format::ods>,
      .resource = sheets_resource<sheets::Format::ods>,
  });
}

}  // namespace mcpread::readers

namespace mcpread::readers {

bool register_xls_reader(ReaderRegistry& registry) {
  return registry.add(Reader{
      .kind = kXlsKind,
      .article = "an Excel 97-2003 workbook",
      .noun = "Excel 97-2003 workbooks",
      .describe = describe_sheets,
      .counts = "row",
      .extensions = {{"xls", kXlsMime}, {"xlt", kXlsMime}, {"xla", kXlsMime}},
      .sniff = sniff_xls,
      .also_serves = {FileKind::text},
      .read = read_as_sheets<sheets::Format::xls>,
      .resource = sheets_resource<sheets::Format::xls>,
  });
}

}  // namespace mcpread::readers
