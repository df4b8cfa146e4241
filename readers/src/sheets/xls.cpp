#include "sheets/xls.hpp"

#include "byte_order.hpp"
#include "file_io.hpp"
#include "lazy_library.hpp"
#include "markdown_cell.hpp"
#include "mcpread/common/platform.hpp"
#include "ole2/ole2_file.hpp"
#include "sheets/number_format.hpp"
#include "sheets/xls_formulas.hpp"
#include "sheets/xls_probe.hpp"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <optional>

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

class XlsWorkbook final : public Workbook {
 public:
  XlsWorkbook(const Api& a, const void* handle) : api_(a), handle_(handle) {}
  ~XlsWorkbook() override { api_.close(handle_); }
  XlsWorkbook(const XlsWorkbook&) = delete;
  XlsWorkbook& operator=(const XlsWorkbook&) = delete;

  // The sheets' names and extents; false with *error when libfreexl cannot list them.
  bool list_sheets(unsigned count, std::string* error) {
    for (unsigned i = 0; i < count; ++i) {
      const char* name = nullptr;
      if (api_.sheet_name(handle_, static_cast<unsigned short>(i), &name) != kOk) {
        *error = "the name of sheet " + std::to_string(i + 1) + " cannot be read";
        return false;
      }
      SheetInfo info;
      info.name = name == nullptr || *name == '\0' ? "Sheet" + std::to_string(i + 1) : std::string(name);
      unsigned rows = 0;
      unsigned short columns = 0;
      if (api_.select(handle_, static_cast<unsigned short>(i)) == kOk &&
          api_.dimensions(handle_, &rows, &columns) == kOk && rows > 0 && columns > 0) {
        const auto last_column = std::min<std::uint32_t>(columns, kMaxColumns) - 1;
        info.extent = "A1:" + column_name(last_column) + std::to_string(std::min<std::uint64_t>(rows, kMaxRows));
      }
      sheets_.push_back(std::move(info));
    }
    return true;
  }

  // libfreexl 1.0 skips FORMULA records: their stored results, read from the workbook stream
  // (xls_formulas.hpp), fill those cells.
  void set_formulas(FormulaResults formulas) {
    formulas_ = std::move(formulas);
    formulas_read_ = true;
  }

  // Without the stored results (no libgsf to reach the stream: Windows; a BIFF2-4 file), which
  // cells hold a formula is not known.
  std::string note() const override {
    if (formulas_read_) return {};
    return "[Cells holding a formula show empty: libfreexl, which reads .xls files here, does not read formula "
           "results. Saving the workbook as .xlsx (Excel, LibreOffice) keeps them readable.]";
  }

  bool rows(std::size_t index, std::uint64_t first_row, const RowSink& sink, std::vector<std::string>*,
            std::string* error) override {
    unsigned rows = 0;
    unsigned short columns = 0;
    if (index >= sheets_.size() || api_.select(handle_, static_cast<unsigned short>(index)) != kOk ||
        api_.dimensions(handle_, &rows, &columns) != kOk) {
      *error = "libfreexl cannot select it";
      return false;
    }
    const auto last_row = static_cast<std::uint32_t>(std::min<std::uint64_t>(rows, kMaxRows));
    const std::uint32_t width = std::min<std::uint32_t>(columns, kMaxColumns);
    const auto found = formulas_.find(sheets_[index].name);
    const auto* formulas = found == formulas_.end() ? nullptr : &found->second;
    for (std::uint32_t r = 0; r < last_row; ++r) {
      Row row;
      row.number = r + 1;
      bool any = false;
      for (std::uint32_t c = 0; c < width; ++c) {
        CellValue v{};
        const bool read = api_.cell(handle_, r, static_cast<unsigned short>(c), &v) == kOk && v.type != kCellNull;
        const std::string* result = nullptr;
        if (!read && formulas != nullptr) {
          const auto f = formulas->find({r, static_cast<std::uint16_t>(c)});
          if (f != formulas->end()) result = &f->second;
        }
        if (!read && result == nullptr) continue;
        if (row.number < first_row) {  // before the page: only whether it holds a value matters
          any = true;
          break;
        }
        std::string text = read ? cell_text(v) : *result;
        if (text.empty()) continue;
        any = true;
        add_cell(row, Cell{c, std::move(text)});
        if (row.cut) break;
      }
      if (any && !sink(std::move(row))) return true;
    }
    return true;
  }

 private:
  const Api& api_;
  const void* handle_;
  FormulaResults formulas_;
  bool formulas_read_ = false;
};

// The stored formula results of the workbook in `file` (an OLE2 compound file's "Workbook" or
// BIFF5 "Book" stream); nullopt when they cannot be had.
std::optional<FormulaResults> formula_results(const OpenedFile& file, std::uint64_t limit) {
  const auto bytes = file_io::read_whole(file.fd.get(), static_cast<std::uint64_t>(file.st.st_size), limit);
  if (!bytes || !std::string_view(*bytes).starts_with(ole2::kSignature)) return std::nullopt;
  std::string error;
  const auto compound = ole2::CompoundFile::open(*bytes, &error);
  if (compound == nullptr) return std::nullopt;
  for (const char* name : {"Workbook", "Book"})
    if (const auto stream = compound->stream(name, limit, &error)) return read_formula_results(*stream);
  return std::nullopt;
}

constexpr std::size_t kScanChunk = 1 << 20;
constexpr std::size_t kRecordReach = 18;  // a DIMENSIONS record's header and body
constexpr std::uint64_t kFreexlSheetCap = 256ull << 20;  // libfreexl refuses a larger sheet unallocated
constexpr std::uint64_t kCellBytes = 16;                 // libfreexl's cell: a type and a union

// The records counted start before `starts_before` (the rest of a chunk is the next's start).
// BIFF2's record (type 0, 8 bytes) only in a BIFF2-4 file: in a compound file its bytes are
// common in padding and would count sheets that are not there.
std::uint64_t declared_in(std::string_view b, std::size_t starts_before, bool legacy) {
  std::uint64_t total = 0;
  for (std::size_t i = 0; i + kRecordReach <= b.size() && i < starts_before; ++i) {
    if (b[i + 1] != 0x02 && b[i + 1] != 0x00) continue;
    const std::uint32_t type = bytes::le16(b, i), size = bytes::le16(b, i + 2);
    std::uint64_t rows = 0, columns = 0;
    if (type == 0x0200 && size == 14) {  // BIFF8: 32-bit rows
      rows = bytes::le16(b, i + 8) | static_cast<std::uint64_t>(bytes::le16(b, i + 10)) << 16;
      columns = bytes::le16(b, i + 14);
    } else if ((type == 0x0200 && size == 10) || (legacy && type == 0x0000 && size == 8)) {  // BIFF2-5
      rows = bytes::le16(b, i + 6);
      columns = bytes::le16(b, i + 10);
    } else {
      continue;
    }
    const std::uint64_t bytes = rows * columns * kCellBytes;
    if (bytes <= kFreexlSheetCap) total += bytes;
  }
  return total;
}

}  // namespace

std::uint64_t declared_cell_bytes(std::string_view bytes) {
  return declared_in(bytes, bytes.size(), !bytes.starts_with("\xD0\xCF\x11\xE0"));
}

std::unique_ptr<Workbook> open_xls(const OpenedFile& file, const XlsLimits& limits, std::string* error) {
  const auto size = static_cast<std::uint64_t>(file.st.st_size);
  if (size > limits.max_file_bytes) {
    *error = "it is " + std::to_string(size) + " bytes, more than the " + std::to_string(limits.max_file_bytes) +
             " bytes read of an Excel 97-2003 workbook; save it as .xlsx (read a page at a time) and read that";
    return nullptr;
  }
  const Api* a = api(error);
  if (a == nullptr) return nullptr;
  // libfreexl holds every sheet in a table of rows x columns cells, sized by the sheet's
  // DIMENSIONS record, all of them at once: a small file declaring many large sheets would take
  // gigabytes. The records are found by their bytes (a record split across the file's sectors
  // is missed, one of a sheet that declares none is not there to count).
  std::string chunk(kScanChunk + kRecordReach, '\0');
  std::uint64_t declared = 0;
  bool legacy = true;
  for (std::uint64_t at = 0; at < size; at += kScanChunk) {
    const auto got = file_io::pread_full(file.fd.get(), chunk.data(), chunk.size(), at);
    if (!got) {
      *error = "the file cannot be read (" + std::string(std::strerror(errno)) + ")";
      return nullptr;
    }
    if (at == 0) legacy = !std::string_view(chunk.data(), *got).starts_with("\xD0\xCF\x11\xE0");
    declared += declared_in(std::string_view(chunk.data(), *got), kScanChunk, legacy);
    if (*got < chunk.size()) break;
  }
  if (declared > limits.max_cell_table_bytes) {
    *error = "its sheets declare " + std::to_string(declared / kCellBytes) + " cells, more than the " +
             std::to_string(limits.max_cell_table_bytes / kCellBytes) +
             " read of an Excel 97-2003 workbook (all of them are held at once); save it as .xlsx and read that";
    return nullptr;
  }
#if defined(_WIN32)
  // No /proc/self/fd: the file's own path (libfreexl's fopen takes it as UTF-8 there,
  // scripts/windows/freexl/utf8_fopen.c). A member of an archive has none.
  const std::string path = file.path.string();
  std::error_code ec;
  if (!std::filesystem::is_regular_file(file.path, ec)) {
    *error = "libfreexl opens workbooks by name, and a member of an archive has none on Windows; extract it and "
             "read the file";
    return nullptr;
  }
#else
  const std::string path = platform::descriptor_path(file.fd.get());
  if (path.empty()) {
    *error = "libfreexl opens files by name, and this system has no /proc/self/fd to name the open file by";
    return nullptr;
  }
#endif
  if (!probe_freexl_open(a->open, a->close, file.fd.get(), path, file_io::identity_key(file), error)) return nullptr;
  const void* handle = nullptr;
  const int opened = a->open(path.c_str(), &handle);
  if (opened != kOk || handle == nullptr) {
    if (handle != nullptr) a->close(handle);
    *error = open_error(opened);
    return nullptr;
  }
  auto book = std::make_unique<XlsWorkbook>(*a, handle);
  unsigned password = 0, count = 0;
  if (a->info(handle, kInfoPassword, &password) == kOk && password == kObfuscated) {
    *error = "it is password-protected (encrypted); its cells cannot be read without the password";
    return nullptr;
  }
  if (a->info(handle, kInfoSheetCount, &count) != kOk) count = 0;
  if (!book->list_sheets(count, error)) return nullptr;
  if (auto formulas = formula_results(file, limits.max_file_bytes)) book->set_formulas(std::move(*formulas));
  if (count == 0) {
    *error = "it holds no worksheet libfreexl can read (a chart or macro sheet only?)";
    return nullptr;
  }
  return book;
}

}  // namespace mcpread::readers::sheets
