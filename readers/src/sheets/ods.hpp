#pragma once
// ODS spreadsheets (OpenDocument): the tables of content.xml, streamed row by row, each cell shown
// by the text its text:p paragraphs hold (what the application displayed when it saved), else by
// its typed value. Internal to the readers library.
#include "package/zip_archive.hpp"
#include "sheets/sheet_table.hpp"

#include <memory>
#include <string>

namespace mcpread::readers::sheets {

std::unique_ptr<Workbook> open_ods(package::ZipArchive& zip, std::string* error);

}  // namespace mcpread::readers::sheets
