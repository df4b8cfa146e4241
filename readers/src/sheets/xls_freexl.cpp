#include "sheets/xls_freexl.hpp"

#include "child_process.hpp"
#include "mcpread/common/lazy_library.hpp"
#include "sheets/number_format.hpp"
#include "sheets/sheet_table.hpp"

#include <algorithm>
#include <chrono>

namespace mcpread::readers::sheets {
namespace {

// libfreexl's C interface (freexl.h, stable since 1.0), declared here so that building needs no
// libfreexl headers: the Windows build has none.
struct CellValue {
  unsigned char type;
  union {
    int int_value;
    double double_value;
    const char* text_value;
  } value;
};
constexpr unsigned char kCellNull = 101, kCellInt = 102, kCellDouble = 103, kCellText = 104, kCellSstText = 105,
                        kCellDate = 106, kCellDateTime = 107, kCellTime = 108;
constexpr unsigned short kInfoPassword = 32008, kInfoSheetCount = 32010;
constexpr unsigned kObfuscated = 3003;
constexpr int kOk = 0, kInsufficientMemory = -4, kInvalidCfbfHeader = -7, kInvalidSignature = -10,
              kWorkbookNotFound = -17;
constexpr std::size_t kCellOverhead = 12;  // a cell's row, column and length in the message

struct Api {
  int (*open)(const char*, const void**) = nullptr;
  int (*close)(const void*) = nullptr;
  int (*info)(const void*, unsigned short, unsigned int*) = nullptr;
  int (*sheet_name)(const void*, unsigned short, const char**) = nullptr;
  int (*select)(const void*, unsigned short) = nullptr;
  int (*dimensions)(const void*, unsigned int*, unsigned short*) = nullptr;
  int (*cell)(const void*, unsigned int, unsigned short, CellValue*) = nullptr;
};

const Api* api(std::string* error) {
  // Windows: libfreexl-1.dll beside mcp-read.exe (scripts/windows/deps-xls.sh), by this soname's
  // Windows name.
  static const LazyLibrary<Api> lib(
      {.needs = "reading Excel 97-2003 workbooks needs libfreexl (Debian package libfreexl1)",
       .candidates = {"libfreexl.so.1"}},
      [](SymbolBinder& bind, Api& a) {
        return bind(&a.open, "freexl_open") && bind(&a.close, "freexl_close") && bind(&a.info, "freexl_get_info") &&
               bind(&a.sheet_name, "freexl_get_worksheet_name") &&
               bind(&a.select, "freexl_select_active_worksheet") &&
               bind(&a.dimensions, "freexl_worksheet_dimensions") && bind(&a.cell, "freexl_get_cell_value");
      });
  return lib.get(error);
}

std::string open_error(int code) {
  switch (code) {
    case kInvalidCfbfHeader:
    case kInvalidSignature:
      return "it is neither an OLE2 compound file nor an older BIFF workbook";
    case kWorkbookNotFound:
      return "it is an OLE2 compound file without a workbook stream (a Word document, a PowerPoint presentation "
             "or an Outlook message named .xls?)";
    case kInsufficientMemory:
      return "a sheet declares more cells than libfreexl holds in memory (256 MiB of cells)";
    default:
      return "libfreexl cannot parse it (error " + std::to_string(code) +
             "): it is corrupt or truncated, or holds records libfreexl does not know";
  }
}

// A cell as it shows: numbers in Excel's General format, dates and times as libfreexl gives them
// ("2024-03-01", "2024-03-01 09:30:15", "09:30:15"), a date-time's zero seconds left out as the
// XLSX reader's built-in format 22 shows it ("2024-03-01 09:30").
std::string cell_text(const CellValue& v) {
  switch (v.type) {
    case kCellInt: return std::to_string(v.value.int_value);
    case kCellDouble: return general_number(v.value.double_value);
    case kCellText:
    case kCellSstText:
    case kCellDate:
    case kCellTime: return v.value.text_value == nullptr ? std::string() : std::string(v.value.text_value);
    case kCellDateTime: {
      std::string s = v.value.text_value == nullptr ? std::string() : std::string(v.value.text_value);
      if (s.size() == 19 && s.ends_with(":00")) s.resize(16);
      return s;
    }
    default: return {};
  }
}

// Sheet `index`'s cells into `sheet`, counting what they take in *used; false when that ran past
// `budget` (the row it stopped in left out whole).
bool read_cells(const Api& a, const void* handle, std::uint32_t index, XlsSheet& sheet, std::size_t budget,
                std::size_t* used, XlsBook& book) {
  const auto last_row = static_cast<std::uint32_t>(std::min<std::uint64_t>(sheet.rows, kMaxRows));
  const std::uint32_t width = std::min<std::uint32_t>(sheet.columns, kMaxColumns);
  for (std::uint32_t r = 0; r < last_row; ++r) {
    const std::size_t row_start = sheet.cells.size();
    for (std::uint32_t c = 0; c < width; ++c) {
      CellValue v{};
      if (a.cell(handle, r, static_cast<unsigned short>(c), &v) != kOk || v.type == kCellNull) continue;
      XlsCell cell{r, static_cast<std::uint16_t>(c), cell_text(v)};
      *used += kCellOverhead + cell.text.size();
      if (*used > budget) {
        sheet.cells.resize(row_start);
        book.cut = true;
        book.cut_sheet = index;
        book.cut_row = r;
        return false;
      }
      sheet.cells.push_back(std::move(cell));
    }
  }
  return true;
}

// Everything libfreexl reads of the workbook at `path`: what the child sends back.
XlsBook read_book(const Api& a, const std::string& path, std::size_t budget) {
  XlsBook book;
  const void* handle = nullptr;
  const int opened = a.open(path.c_str(), &handle);
  if (opened != kOk || handle == nullptr) {
    if (handle != nullptr) a.close(handle);
    book.error = open_error(opened);
    return book;
  }
  unsigned password = 0, count = 0;
  if (a.info(handle, kInfoPassword, &password) == kOk && password == kObfuscated) {
    book.error = "it is password-protected (encrypted); its cells cannot be read without the password";
  } else {
    if (a.info(handle, kInfoSheetCount, &count) != kOk) count = 0;
    std::size_t used = 0;
    for (std::uint32_t i = 0; i < count && book.error.empty(); ++i) {
      const char* name = nullptr;
      if (a.sheet_name(handle, static_cast<unsigned short>(i), &name) != kOk) {
        book.error = "the name of sheet " + std::to_string(i + 1) + " cannot be read";
        break;
      }
      XlsSheet sheet;
      sheet.name = name == nullptr || *name == '\0' ? "Sheet" + std::to_string(i + 1) : std::string(name);
      unsigned rows = 0;
      unsigned short columns = 0;
      if (a.select(handle, static_cast<unsigned short>(i)) == kOk && a.dimensions(handle, &rows, &columns) == kOk) {
        sheet.rows = rows;
        sheet.columns = columns;
        if (!book.cut) read_cells(a, handle, i, sheet, budget, &used, book);
      } else {
        sheet.selected = false;
      }
      book.sheets.push_back(std::move(sheet));
    }
    if (count == 0) book.error = "it holds no worksheet libfreexl can read (a chart or macro sheet only?)";
  }
  a.close(handle);
  return book;
}

}  // namespace

bool read_with_freexl(const std::string& path, int fd, std::size_t budget, XlsBook* book, std::string* error,
                      const CancelToken& cancel) {
  const Api* a = api(error);  // loaded here, once, so that every child has it
  if (a == nullptr) return false;
  child_process::Limits limits;
  limits.cpu_seconds = 30;
  limits.wall = std::chrono::seconds(60);  // a child stalled without using CPU (a lock held at the fork)
  limits.max_message = budget + (16u << 20);  // the cells and the sheets' names
  limits.keep_descriptor = fd;                        // `path` names it (/proc/self/fd/N)
  const child_process::Outcome child = child_process::run([&] { return encode(read_book(*a, path, budget)); }, limits, cancel);
#if defined(_WIN32)
  if (child.ending == child_process::Ending::not_started) {
    *book = read_book(*a, path, budget);
    return true;
  }
#endif
  if (child.ending != child_process::Ending::sent) {
    *error = child.refusal("libfreexl", "reading it", limits,
                           ": the workbook is damaged; open it in Excel or LibreOffice and save it as .xlsx");
    return false;
  }
  if (!decode(child.message, book)) {
    *error = "libfreexl's process sent back what is not a workbook's cells";
    return false;
  }
  return true;
}

}  // namespace mcpread::readers::sheets
