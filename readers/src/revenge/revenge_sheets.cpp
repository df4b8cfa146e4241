#include "revenge/revenge_sheets.hpp"

#include "mcpread/readers/utf8.hpp"
#include "revenge/revenge_document.hpp"
#if !defined(_WIN32)
#include "revenge/revenge_api.hpp"
#endif
#include "revenge/revenge_reader.hpp"
#include "whole_file.hpp"

#include <nlohmann/json.hpp>

#include <utility>
#include <vector>

namespace mcpread::readers::revenge {

namespace {

class RevengeWorkbook final : public sheets::Workbook {
 public:
  RevengeWorkbook(std::vector<sheets::SheetInfo> infos, std::vector<std::vector<sheets::Row>> rows, bool cut)
      : rows_(std::move(rows)), cut_(cut) {
    sheets_ = std::move(infos);
  }

  std::string note() const override {
    return cut_ ? "[The workbook holds more than is read (64 MiB of cell text or 2,000,000 cells): the cells past that "
                  "are not shown.]"
                : std::string();
  }

  bool rows(std::size_t index, std::uint64_t first_row, const sheets::RowSink& sink, std::vector<std::string>*,
            std::string* error) override {
    if (index >= rows_.size()) return *error = "there is no such sheet", false;
    for (const sheets::Row& row : rows_[index]) {
      sheets::Row copy;
      copy.number = row.number;
      if (row.number >= first_row) copy = row;  // rows before the page only say that they exist
      if (!sink(std::move(copy))) break;
    }
    return true;
  }

 private:
  std::vector<std::vector<sheets::Row>> rows_;
  bool cut_;
};

}  // namespace

std::unique_ptr<sheets::Workbook> sheets_from_plugin_json(std::string_view json, std::string* format) {
  const nlohmann::json j = nlohmann::json::parse(json, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return nullptr;
  try {
    std::vector<sheets::SheetInfo> infos;
    std::vector<std::vector<sheets::Row>> all;
    for (const auto& sheet : j.at("sheets")) {
      sheets::SheetInfo info;
      info.name = utf8::sanitized(sheet.at("name").get<std::string>());
      std::vector<sheets::Row> rows;
      for (const auto& r : sheet.at("rows")) {
        sheets::Row row;
        row.number = r.at("row").get<std::uint64_t>();
        if (row.number == 0 || row.number > sheets::kMaxRows || (!rows.empty() && row.number <= rows.back().number))
          return nullptr;
        for (const auto& c : r.at("cells")) {
          const auto column = c.at(0).get<std::uint64_t>();
          if (column >= sheets::kMaxColumns || (!row.cells.empty() && column <= row.cells.back().column)) return nullptr;
          sheets::add_cell(row, {static_cast<std::uint32_t>(column), utf8::sanitized(c.at(1).get<std::string>())});
        }
        if (!row.cells.empty()) rows.push_back(std::move(row));
      }
      infos.push_back(std::move(info));
      all.push_back(std::move(rows));
    }
    *format = utf8::sanitized(j.at("format").get<std::string>());
    return std::make_unique<RevengeWorkbook>(std::move(infos), std::move(all), j.at("cut").get<bool>());
  } catch (const nlohmann::json::exception&) {
    return nullptr;
  }
}

ReadOutcome read_revenge_sheet_bytes(std::string_view bytes, std::string_view name, const sheets::SheetOptions& options,
                                     const CancelToken& cancel) {
  const std::string path = utf8::sanitized(name);
  nlohmann::json meta = {{"path", path}, {"size", bytes.size()}};
  constexpr std::string_view kAdvice =
      ": the file is damaged or uses what the importer cannot read; open it in LibreOffice and save it as ODS";
  std::string error, answer, format;
  std::unique_ptr<sheets::Workbook> book;
  // An empty file is said to be one, not put through four importers that recognise nothing.
  if (bytes.empty()) error = "the file is empty (0 bytes)";
#if defined(_WIN32)
  (void)kAdvice;
  if (!bytes.empty()) error = "the Windows build of mcp-read does not include librevenge's importers, which read it: open it in "
               "LibreOffice and save it as XLSX or ODS, or use mcp-read on Linux";
#else
  else if (run_importer(bytes, &answer, &error, cancel, &RevengeApi::read_sheet, kAdvice) &&
           !(book = sheets_from_plugin_json(answer, &format)))
    error = "the importer's parse ended with a malformed answer" + std::string(kAdvice);
#endif
  if (cancel.cancelled()) return ReadOutcome::stopped();
  if (!book) return ReadOutcome::error("Cannot read " + path + " as a spreadsheet: " + error + ".", std::move(meta));
  meta["format"] = format;
  return sheets::render_workbook(*book, path, format, "a spreadsheet", options, cancel, std::move(meta));
}

ReadOutcome read_revenge_sheet_file(const OpenedFile& file, const sheets::SheetOptions& options,
                                    const CancelToken& cancel) {
  auto bytes = read_whole_file(file, kMaxFileBytes, "spreadsheets");
  if (auto* refused = std::get_if<ReadOutcome>(&bytes)) return std::move(*refused);
  return read_revenge_sheet_bytes(std::get<std::string>(bytes), utf8::sanitized(file.path.string()), options, cancel);
}

}  // namespace mcpread::readers::revenge
