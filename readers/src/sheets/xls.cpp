#include "sheets/xls.hpp"

#include "byte_order.hpp"
#include "file_io.hpp"
#include "human_size.hpp"
#include "mcpread/common/platform.hpp"
#include "ole2/ole2_file.hpp"
#include "package/part_cache.hpp"
#include "sheets/xls_formulas.hpp"
#include "sheets/xls_freexl.hpp"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <map>
#include <optional>

namespace mcpread::readers::sheets {
namespace {

// What is kept of a workbook read: its cells as libfreexl read them (in a child:
// xls_freexl.hpp), and the stored formula results libfreexl 1.0 leaves out (it skips FORMULA
// records), read from the workbook stream (xls_formulas.hpp); none without libolecf to reach the
// stream (Windows) or in a BIFF2-4 file.
struct XlsRead {
  XlsBook book;
  std::optional<FormulaResults> formulas;

  std::size_t bytes() const {
    std::size_t total = book.bytes();
    if (formulas)
      for (const auto& [sheet, cells] : *formulas) {
        total += sheet.size();
        for (const auto& [at, text] : cells) total += 64 + text.size();  // a map node
      }
    return total;
  }
};

class XlsWorkbook final : public Workbook {
 public:
  XlsWorkbook(std::shared_ptr<const XlsRead> read, std::size_t budget)
      : read_(std::move(read)), book_(&read_->book), budget_(budget) {
    if (read_->formulas) formulas_ = &*read_->formulas;
    for (const XlsSheet& s : book_->sheets) {
      SheetInfo info;
      info.name = s.name;
      if (s.rows > 0 && s.columns > 0) {
        const auto last_column = std::min<std::uint32_t>(s.columns, kMaxColumns) - 1;
        info.extent = "A1:" + column_name(last_column) + std::to_string(std::min<std::uint64_t>(s.rows, kMaxRows));
      }
      sheets_.push_back(std::move(info));
    }
  }

  // Without the stored results (no libolecf to reach the stream: Windows; a BIFF2-4 file), which
  // cells hold a formula is not known.
  std::string note() const override {
    std::string note;
    if (book_->cut && book_->cut_sheet < book_->sheets.size())
      note = "[Only the first " + human_size(budget_) + " of the workbook's cells are read: sheet \"" +
             book_->sheets[book_->cut_sheet].name + "\" shows its rows before row " +
             std::to_string(std::uint64_t{book_->cut_row} + 1) +
             ", the sheets after it none. Saving the workbook as .xlsx (Excel, LibreOffice) makes all of it readable, "
             "a page at a time.]";
    if (formulas_ != nullptr) return note;
    return (note.empty() ? note : note + "\n") +
           "[Cells holding a formula show empty: libfreexl, which reads .xls files here, does not read formula "
           "results. Saving the workbook as .xlsx (Excel, LibreOffice) keeps them readable.]";
  }

  bool rows(std::size_t index, std::uint64_t first_row, const RowSink& sink, std::vector<std::string>*,
            std::string* error) override {
    if (index >= book_->sheets.size() || !book_->sheets[index].selected) {
      *error = "libfreexl cannot select it";
      return false;
    }
    const XlsSheet& sheet = book_->sheets[index];
    static const std::map<std::pair<std::uint32_t, std::uint16_t>, std::string> kNone;
    const auto found = formulas_ == nullptr ? FormulaResults::const_iterator() : formulas_->find(sheet.name);
    const auto& formulas = formulas_ == nullptr || found == formulas_->end() ? kNone : found->second;
    // The formula results stop where the cells do (the cut sheet's at the cut, a later one's at once).
    const std::uint64_t rows_end = row_end(*book_, index);
    const std::uint32_t width = column_end(sheet);
    // The cells libfreexl read and the formula results, merged in (row, column) order; a cell
    // libfreexl read is shown as it read it.
    auto cell = sheet.cells.begin();
    auto formula = formulas.begin();
    auto skip_formulas = [&] {
      while (formula != formulas.end() && (formula->first.second >= width || formula->first.first >= rows_end))
        ++formula;
    };
    skip_formulas();
    while (cell != sheet.cells.end() || formula != formulas.end()) {
      const std::uint32_t r = cell != sheet.cells.end() && (formula == formulas.end() || cell->row <= formula->first.first)
                                  ? cell->row
                                  : formula->first.first;
      Row row;
      row.number = std::uint64_t{r} + 1;
      bool any = false;
      while (true) {
        const bool from_cell = cell != sheet.cells.end() && cell->row == r;
        const bool from_formula = formula != formulas.end() && formula->first.first == r;
        if (!from_cell && !from_formula) break;
        std::uint32_t column = 0;
        const std::string* text = nullptr;
        if (from_cell && (!from_formula || cell->column <= formula->first.second)) {
          if (from_formula && cell->column == formula->first.second) ++formula, skip_formulas();
          column = cell->column;
          text = &cell->text;
          ++cell;
        } else {
          column = formula->first.second;
          text = &formula->second;
          ++formula;
          skip_formulas();
        }
        if (row.cut) continue;
        if (row.number < first_row) {  // before the page: only whether it holds a value matters
          any = true;
          continue;
        }
        if (text->empty()) continue;
        any = true;
        add_cell(row, Cell{column, *text});
      }
      if (any && !sink(std::move(row))) return true;
    }
    return true;
  }

 private:
  std::shared_ptr<const XlsRead> read_;
  const XlsBook* book_;
  const FormulaResults* formulas_ = nullptr;
  std::size_t budget_;
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

constexpr const char* kCacheName = "xls book";
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

namespace {

// The workbook in `file` read: its cells through libfreexl in a child, then its formula results.
// nullptr with a clause in *error when it cannot be read; a read whose `book.error` says why
// libfreexl refused it.
std::shared_ptr<const XlsRead> read_workbook(const OpenedFile& file, const XlsLimits& limits, std::string* error,
                                             const CancelToken& cancel) {
  const auto size = static_cast<std::uint64_t>(file.st.st_size);
  // libfreexl holds every sheet in a table of rows x columns cells, sized by the sheet's
  // DIMENSIONS record, all of them at once: a small file declaring many large sheets would take
  // gigabytes. The records are found by their bytes (a record split across the file's sectors
  // is missed, one of a sheet that declares none is not there to count).
  // No larger than the file: zeroing and faulting in 1 MiB cost more than reading a small workbook.
  std::string chunk(static_cast<std::size_t>(std::min<std::uint64_t>(size, kScanChunk)) + kRecordReach, '\0');
  std::uint64_t declared = 0;
  bool legacy = true;
  for (std::uint64_t at = 0; at < size; at += kScanChunk) {
    const auto got = file_io::pread_full(file.fd.get(), chunk.data(), chunk.size(), at);
    if (!got) {
      *error = "the file cannot be read (" + std::string(std::strerror(errno)) + ")";
      return nullptr;
    }
    if (at == 0) {
      legacy = !std::string_view(chunk.data(), *got).starts_with("\xD0\xCF\x11\xE0");
      if (*error = ole2::header_error(std::string_view(chunk.data(), *got), size); !error->empty()) return nullptr;
    }
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
  auto read = std::make_shared<XlsRead>();
  if (!read_with_freexl(path, file.fd.get(), limits.max_cell_text_bytes, &read->book, error, cancel)) return nullptr;
  if (read->book.error.empty()) read->formulas = formula_results(file, limits.max_file_bytes);
  return read;
}

}  // namespace

std::unique_ptr<Workbook> open_xls(const OpenedFile& file, const XlsLimits& limits, std::string* error,
                                   const CancelToken& cancel) {
  const auto size = static_cast<std::uint64_t>(file.st.st_size);
  if (size > limits.max_file_bytes) {
    *error = "it is " + std::to_string(size) + " bytes, more than the " + std::to_string(limits.max_file_bytes) +
             " bytes read of an Excel 97-2003 workbook; save it as .xlsx (read a page at a time) and read that";
    return nullptr;
  }
  // A workbook read before (the same file unchanged) is not read again: a model reads it a
  // sheet or a page a call.
  // (The budget is part of the key: a book cut under one is not another's.)
  const std::string key = file_io::identity_key(file) + "/" + std::to_string(limits.max_cell_text_bytes);
  auto read = package::PartCache::instance().get_value<XlsRead>(key, kCacheName);
  if (read == nullptr) {
    read = read_workbook(file, limits, error, cancel);
    if (read == nullptr) return nullptr;
    if (read->book.error.empty()) package::PartCache::instance().put_value(key, kCacheName, read, read->bytes());
  }
  if (!read->book.error.empty()) {
    *error = read->book.error;
    return nullptr;
  }
  return std::make_unique<XlsWorkbook>(std::move(read), limits.max_cell_text_bytes);
}

}  // namespace mcpread::readers::sheets
