#include "sheets/reader.hpp"

#include "mcpread/readers/hint.hpp"
#include "mcpread/readers/utf8.hpp"
#include "memory_file.hpp"
#include "package/open.hpp"
#include "sheets/ods.hpp"
#include "sheets/selection.hpp"
#include "sheets/xlsb.hpp"
#include "sheets/xlsx.hpp"

#include <algorithm>
#include <variant>

namespace mcpread::readers::sheets {
namespace {

constexpr std::size_t kFooterReserve = 600;  // bytes of the cap kept for closing lines
constexpr std::size_t kMinSheetBudget = 1024;

std::string n2s(std::uint64_t v) { return std::to_string(v); }

std::string_view noun(Format f) {
  switch (f) {
    case Format::xlsx: return "Excel workbook";
    case Format::xlsb: return "Excel binary workbook";
    case Format::xls: return "Excel 97-2003 workbook";
    case Format::ods: break;
  }
  return "OpenDocument spreadsheet";
}

std::string_view article(Format f) {
  switch (f) {
    case Format::xlsx: return "an Excel workbook";
    case Format::xlsb: return "an Excel binary workbook";
    case Format::xls: return "an Excel 97-2003 workbook";
    case Format::ods: break;
  }
  return "an OpenDocument spreadsheet";
}

package::Expected expected(Format f) {
  return {article(f),
          {noun(f), "cells", "Excel .xls",
           f == Format::xlsx ? "an XLSX spreadsheet" : f == Format::xlsb ? "an XLSB spreadsheet" : "an ODS spreadsheet"}};
}

// "A1:B2" whose first row lies in [first, last].
bool merge_starts_within(std::string_view ref, std::uint64_t first, std::uint64_t last) {
  std::uint32_t column = 0;
  std::uint64_t row = 0;
  return parse_reference(ref.substr(0, ref.find(':')), &column, &row) && row >= first && row <= last;
}

// Said of the cells of rows first-last showing their formula (see formula_text.hpp): counted for
// the page only, as a count for the sheet would mean reading all of it.
std::string formula_note(std::uint64_t cells, std::uint64_t first, std::uint64_t last) {
  const bool one = cells == 1;
  return "Formulas with no stored result: " + n2s(cells) + (one ? " cell" : " cells") + " in rows " + n2s(first) + "-" +
         n2s(last) + (one ? " shows its formula" : " show their formula") +
         " in backticks instead of a value. The file holds no value for " + (one ? "it" : "them") +
         " (the program that wrote it did not calculate formulas); opening the file in a spreadsheet program would "
         "calculate " + (one ? "it." : "them.");
}

}  // namespace

ReadOutcome render_workbook(Workbook& book, std::string_view path, std::string_view format_noun,
                            std::string_view format_article, const SheetOptions& options, const CancelToken& cancel,
                            nlohmann::json meta) {
  const auto& sheets = book.sheets();
  const std::size_t n = sheets.size();
  auto selected = select_sheets(options.pages, sheets, path);
  if (auto* e = std::get_if<std::string>(&selected)) return ReadOutcome::error(std::move(*e), std::move(meta));
  const auto& chosen = std::get<std::vector<std::size_t>>(selected);
  meta["sheets"] = n;

  std::string out = std::string(format_noun) + " " + std::string(path) + ": " + n2s(n) +
                    (n == 1 ? " sheet: " : " sheets: ") + sheet_list(sheets) + ".";
  if (const std::string note = book.note(); !note.empty()) out += "\n\n" + note;
  const std::size_t cap = options.max_output_bytes;
  const std::uint64_t offset = std::max<std::uint64_t>(1, options.offset);
  bool truncated = false;
  nlohmann::json shown = nlohmann::json::array();
  std::optional<std::uint64_t> next_offset;
  std::size_t failed = 0;
  std::string last_error;
  for (std::size_t k = 0; k < chosen.size(); ++k) {
    const std::size_t i = chosen[k];
    const std::string number = n2s(i + 1);
    const std::size_t used = out.size() + kFooterReserve;
    if (k > 0 && used + kMinSheetBudget > cap) {
      std::vector<int> rest;
      for (std::size_t j = k; j < chosen.size(); ++j) rest.push_back(static_cast<int>(chosen[j] + 1));
      std::string list;
      for (std::size_t j = 0; j < rest.size(); ++j) list += (j == 0 ? "" : ",") + std::to_string(rest[j]);
      out += "\n\n[" + std::string(rest.size() == 1 ? "Sheet " : "Sheets ") + list + " not shown: the output cap of " +
             n2s(cap) + " bytes is reached. To read " + (rest.size() == 1 ? "it" : "them") +
             ", " + options.wording.say({.pages = list}, HintForm::call_again) + ".]";
      truncated = true;
      break;
    }
    Page page(offset, options.limit, cap > used ? cap - used : kMinSheetBudget);
    std::vector<std::string> merges;
    std::string error;
    const bool ok = book.rows(i, offset, [&](Row&& row) { return !cancel.cancelled() && page.add(std::move(row)); }, &merges,
                              &error);
    if (cancel.cancelled()) return ReadOutcome::stopped();
    // Its declared extent tells how far paging goes ("A1" is what an empty sheet declares).
    const auto& extent = sheets[i].extent;
    const bool spans = extent && extent->find(':') != std::string::npos;
    out += "\n\n## Sheet " + number + ": " + sheets[i].name + (sheets[i].hidden ? " (hidden)" : "") +
           (spans ? " (cells " + *extent + ")" : "") + "\n\n";
    if (!ok) {
      out += "[This sheet cannot be read: " + error + ".]";
      ++failed;
      last_error = error;
      continue;
    }
    const auto& rows = page.rows();  // a reference: table() below may shorten them
    shown.push_back(i + 1);
    if (rows.empty()) {
      out += page.last_seen() == 0 ? "[The sheet has no values.]"
                                   : "[No rows with values from row " + n2s(offset) +
                                         " on: the last row with values is " + n2s(page.last_seen()) + ".]";
      continue;
    }
    out += page.table();  // may give rows back to the next call: first and last after it
    const std::uint64_t first = rows.front().number, last = rows.back().number;
    std::string merged;
    std::size_t listed = 0;
    for (const auto& m : merges)
      if (merge_starts_within(m, first, last) && listed++ < 50) merged += (merged.empty() ? "" : ", ") + m;
    // Merged cells keep their value in the first (top-left) cell and leave the others empty: a
    // Markdown table has no spans, and a value repeated into every covered cell would read as
    // that many values (and be counted so by anyone summing a column).
    if (!merged.empty()) out += "\n\nMerged cells (the value is in the first cell of each): " + merged + ".";
    std::uint64_t formulas = 0;
    for (const Row& r : rows) formulas += r.formula_cells;
    if (formulas > 0) out += "\n\n" + formula_note(formulas, first, last);
    const std::string range = "[Rows " + n2s(first) + "-" + n2s(last) + " of sheet " + number;
    if (page.next_row()) {
      out += "\n\n" + range + (page.capped() ? " (the output cap of " + n2s(cap) + " bytes is reached)" : "") +
             ". To read more, " + options.wording.say({.offset = *page.next_row(), .pages = number}, HintForm::call_again) + ".]";
      if (chosen.size() == 1) next_offset = *page.next_row();
      truncated = truncated || page.capped();
      if (page.capped()) {
        // Later sheets would not fit either: say so instead of starting them.
        if (k + 1 < chosen.size()) {
          std::string list;
          for (std::size_t j = k + 1; j < chosen.size(); ++j) list += (j == k + 1 ? "" : ",") + n2s(chosen[j] + 1);
          out += "\n[Sheets not shown: " + list + ". To read them, " + options.wording.say({.pages = list}, HintForm::call_again) + ".]";
        }
        break;
      }
    } else {
      out += "\n\n" + range + ". End of sheet.]";
    }
  }
  if (failed == chosen.size() && chosen.size() == 1)
    return ReadOutcome::error(std::string(path) + " cannot be read as " + std::string(format_article) + ": " +
                       last_error + ".",
                   std::move(meta));
  if (!utf8::is_valid(out)) out = utf8::sanitized(out);
  ReadOutcome o;
  o.blocks.emplace_back(TextBlock{std::move(out)});
  meta["sheets_shown"] = std::move(shown);
  if (next_offset) meta["next_offset"] = *next_offset;
  meta["truncated"] = truncated;
  o.meta = std::move(meta);
  return o;
}

namespace {

ReadOutcome render(Workbook& book, std::string_view path, Format format, const SheetOptions& options,
                   const CancelToken& cancel, nlohmann::json meta) {
  return render_workbook(book, path, noun(format), article(format), options, cancel, std::move(meta));
}

ReadOutcome read_opened(std::variant<package::Opened, ReadOutcome> opening, Format format, const SheetOptions& options,
                        const CancelToken& cancel) {
  if (auto* refused = std::get_if<ReadOutcome>(&opening)) return std::move(*refused);
  auto& opened = std::get<package::Opened>(opening);
  // A model pages through a workbook in several calls: each would inflate its sheet again.
  // And each would parse the workbook's shared strings and styles again: kept there too.
  if (!opened.cache_key.empty()) opened.zip->cache_parts(opened.cache_key);
  // An .xlsb read with file_type="xlsx" (XLSB has no file_type of its own): by its content.
  if (format == Format::xlsx && opened.zip->find("xl/workbook.bin") != nullptr &&
      opened.zip->find("xl/workbook.xml") == nullptr)
    format = Format::xlsb;
  std::string error;
  std::unique_ptr<Workbook> book =
      format == Format::xlsx   ? open_xlsx(*opened.zip, options.max_shared_string_bytes, &error, opened.cache_key)
      : format == Format::xlsb ? open_xlsb(*opened.zip, options.max_shared_string_bytes, &error, opened.cache_key)
                               : open_ods(*opened.zip, &error);
  if (cancel.cancelled()) return ReadOutcome::stopped();
  if (!book) return ReadOutcome::error(opened.cannot + error + ".", std::move(opened.meta));
  return render(*book, opened.path, format, options, cancel, std::move(opened.meta));
}

// An .xls: libfreexl reads the file itself (by its descriptor's name).
ReadOutcome read_xls(const OpenedFile& file, const SheetOptions& options, const CancelToken& cancel) {
  const std::string path = utf8::sanitized(file.path.string());
  nlohmann::json meta = {{"path", path}, {"size", static_cast<std::uint64_t>(file.st.st_size)}};
  std::string error;
  std::unique_ptr<Workbook> book = open_xls(file, options.xls, &error, cancel);
  if (cancel.cancelled()) return ReadOutcome::stopped();
  if (!book)
    return ReadOutcome::error(path + " cannot be read as " + std::string(article(Format::xls)) + ": " +
                                  utf8::sanitized(error) + ".",
                              std::move(meta));
  return render(*book, path, Format::xls, options, cancel, std::move(meta));
}

}  // namespace

ReadOutcome read_spreadsheet_bytes(std::string_view bytes, std::string_view name, Format format,
                                   const SheetOptions& options, const CancelToken& cancel) {
  if (format == Format::xls) {  // libfreexl reads files: the bytes go in a memory file
    std::string error;
    std::optional<OpenedFile> file = memory_file(std::string(bytes), std::string(name), &error);
    if (!file) return ReadOutcome::error(std::string(name) + " cannot be read: " + error + ".");
    return read_xls(*file, options, cancel);
  }
  return read_opened(package::open(bytes, name, options.zip, expected(format)), format, options, cancel);
}

ReadOutcome read_spreadsheet(const OpenedFile& file, Format format, const SheetOptions& options,
                             const CancelToken& cancel) {
  if (format == Format::xls) return read_xls(file, options, cancel);
  return read_opened(package::open(file, options.zip, expected(format)), format, options, cancel);
}

}  // namespace mcpread::readers::sheets
