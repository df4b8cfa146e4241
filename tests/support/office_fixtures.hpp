#pragma once
// Office documents built in the tests: zip packages written with libzip, and the smallest DOCX
// and ODT packages around a given body.
#include <string>
#include <utility>
#include <vector>

namespace mcpread::test {

struct ZipItem {
  std::string name;
  std::string data;
  bool stored = false;     // no compression (ODF's mimetype entry)
  bool encrypted = false;  // AES-256 with the password "secret"
};

// The bytes of a zip archive holding `items` in order.
std::string zip_bytes(const std::vector<ZipItem>& items);

// A DOCX whose word/document.xml body is `body` (w:p, w:tbl ... elements), with `extra` parts
// (styles, numbering, notes, comments, media) and relationships `rels` (Relationship elements).
std::string docx_bytes(const std::string& body, const std::string& rels = {},
                       std::vector<ZipItem> extra = {});

// An ODT whose office:text holds `text`, with automatic styles `styles` and `extra` parts.
std::string odt_bytes(const std::string& text, const std::string& styles = {},
                      std::vector<ZipItem> extra = {});

// One worksheet of an XLSX: `rows` is what its sheetData holds (row and c elements), `after` what
// follows it (mergeCells), `state` "hidden" or "veryHidden" for a hidden sheet, `dimension` the
// range the sheet declares.
struct XlsxSheet {
  std::string name;
  std::string rows;
  std::string state = {};
  std::string after = {};
  std::string dimension = {};  // the <dimension ref> before sheetData, when not empty
};

// An XLSX workbook of `sheets`, with shared strings `shared` (each an <si> of one <t>) and the
// cell formats `styles` (the xl/styles.xml inside styleSheet: numFmts and cellXfs).
std::string xlsx_bytes(const std::vector<XlsxSheet>& sheets, const std::vector<std::string>& shared = {},
                       const std::string& styles = {}, bool date1904 = false, std::vector<ZipItem> extra = {});

// An ODS whose office:spreadsheet holds `tables` (table:table elements), with automatic styles
// `styles` and `extra` parts.
std::string ods_bytes(const std::string& tables, const std::string& styles = {}, std::vector<ZipItem> extra = {});

}  // namespace mcpread::test
