#include "office_fixtures.hpp"

#include "fixtures.hpp"

#include <zip.h>

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace mcpread::test {

std::string zip_bytes(const std::vector<ZipItem>& items) {
  TempDir dir;
  const std::string path = (dir.path() / "package.zip").string();
  int code = 0;
  zip_t* z = zip_open(path.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &code);
  if (z == nullptr) throw std::runtime_error("zip_open failed");
  for (const auto& item : items) {
    zip_source_t* src = zip_source_buffer(z, item.data.data(), item.data.size(), 0);
    const zip_int64_t index = zip_file_add(z, item.name.c_str(), src, ZIP_FL_ENC_UTF_8);
    if (index < 0) throw std::runtime_error("zip_file_add failed for " + item.name);
    if (item.stored) zip_set_file_compression(z, static_cast<zip_uint64_t>(index), ZIP_CM_STORE, 0);
    if (item.encrypted &&
        zip_file_set_encryption(z, static_cast<zip_uint64_t>(index), ZIP_EM_AES_256, "secret") != 0)
      throw std::runtime_error("zip_file_set_encryption failed");
  }
  if (zip_close(z) != 0) throw std::runtime_error("zip_close failed");
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

namespace {
constexpr const char* kWordNs =
    "xmlns:w=\"http://schemas.openxmlformats.org/wordprocessingml/2006/main\" "
    "xmlns:r=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships\" "
    "xmlns:wp=\"http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing\" "
    "xmlns:a=\"http://schemas.openxmlformats.org/drawingml/2006/main\" "
    "xmlns:pic=\"http://schemas.openxmlformats.org/drawingml/2006/picture\"";
}

std::string docx_bytes(const std::string& body, const std::string& rels, std::vector<ZipItem> extra) {
  std::vector<ZipItem> items = {
      {"[Content_Types].xml",
       "<?xml version=\"1.0\"?><Types xmlns=\"http://schemas.openxmlformats.org/package/2006/content-types\">"
       "<Default Extension=\"xml\" ContentType=\"application/xml\"/></Types>"},
      {"_rels/.rels",
       "<?xml version=\"1.0\"?><Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\">"
       "<Relationship Id=\"rId1\" Type=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument\" "
       "Target=\"word/document.xml\"/></Relationships>"},
      {"word/document.xml",
       std::string("<?xml version=\"1.0\" encoding=\"UTF-8\"?><w:document ") + kWordNs + "><w:body>" + body +
           "</w:body></w:document>"},
      {"word/_rels/document.xml.rels",
       "<?xml version=\"1.0\"?><Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\">" +
           rels + "</Relationships>"},
  };
  for (auto& e : extra) items.push_back(std::move(e));
  return zip_bytes(items);
}

std::string odt_bytes(const std::string& text, const std::string& styles, std::vector<ZipItem> extra) {
  std::vector<ZipItem> items = {
      {"mimetype", "application/vnd.oasis.opendocument.text", true},
      {"content.xml",
       "<?xml version=\"1.0\" encoding=\"UTF-8\"?><office:document-content "
       "xmlns:office=\"urn:oasis:names:tc:opendocument:xmlns:office:1.0\" "
       "xmlns:text=\"urn:oasis:names:tc:opendocument:xmlns:text:1.0\" "
       "xmlns:table=\"urn:oasis:names:tc:opendocument:xmlns:table:1.0\" "
       "xmlns:draw=\"urn:oasis:names:tc:opendocument:xmlns:drawing:1.0\" "
       "xmlns:xlink=\"http://www.w3.org/1999/xlink\" xmlns:dc=\"http://purl.org/dc/elements/1.1/\" "
       "xmlns:svg=\"urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0\" "
       "xmlns:style=\"urn:oasis:names:tc:opendocument:xmlns:style:1.0\" office:version=\"1.3\">"
       "<office:automatic-styles>" + styles + "</office:automatic-styles><office:body><office:text>" + text +
           "</office:text></office:body></office:document-content>"},
      {"META-INF/manifest.xml",
       "<?xml version=\"1.0\"?><manifest:manifest xmlns:manifest=\"urn:oasis:names:tc:opendocument:xmlns:manifest:1.0\">"
       "<manifest:file-entry manifest:full-path=\"/\" manifest:media-type=\"application/vnd.oasis.opendocument.text\"/>"
       "</manifest:manifest>"},
  };
  for (auto& e : extra) items.push_back(std::move(e));
  return zip_bytes(items);
}

namespace {

const char kSheetNs[] = "xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\" "
                        "xmlns:r=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships\"";
const char kRelsNs[] = "xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\"";
const char kRelBase[] = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/";

std::string xml_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '&') out += "&amp;";
    else if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else if (c == '"') out += "&quot;";
    else out += c;
  }
  return out;
}

}  // namespace

std::string xlsx_bytes(const std::vector<XlsxSheet>& sheets, const std::vector<std::string>& shared,
                       const std::string& styles, bool date1904, std::vector<ZipItem> extra) {
  std::string book = std::string("<?xml version=\"1.0\" encoding=\"UTF-8\"?><workbook ") + kSheetNs + ">" +
                     (date1904 ? "<workbookPr date1904=\"1\"/>" : "") + "<sheets>";
  std::string rels = std::string("<?xml version=\"1.0\"?><Relationships ") + kRelsNs + ">";
  std::vector<ZipItem> items = {
      {"[Content_Types].xml",
       "<?xml version=\"1.0\"?><Types xmlns=\"http://schemas.openxmlformats.org/package/2006/content-types\">"
       "<Default Extension=\"xml\" ContentType=\"application/xml\"/></Types>"},
      {"_rels/.rels", std::string("<?xml version=\"1.0\"?><Relationships ") + kRelsNs +
                          "><Relationship Id=\"rId1\" Type=\"" + kRelBase +
                          "officeDocument\" Target=\"xl/workbook.xml\"/></Relationships>"},
  };
  for (std::size_t i = 0; i < sheets.size(); ++i) {
    const std::string n = std::to_string(i + 1);
    book += "<sheet name=\"" + xml_escape(sheets[i].name) + "\" sheetId=\"" + n + "\" r:id=\"rId" + n + "\"" +
            (sheets[i].state.empty() ? "" : " state=\"" + sheets[i].state + "\"") + "/>";
    rels += "<Relationship Id=\"rId" + n + "\" Type=\"" + kRelBase + "worksheet\" Target=\"worksheets/sheet" + n + ".xml\"/>";
    items.push_back({"xl/worksheets/sheet" + n + ".xml",
                     std::string("<?xml version=\"1.0\" encoding=\"UTF-8\"?><worksheet ") + kSheetNs + ">" +
                         (sheets[i].dimension.empty() ? "" : "<dimension ref=\"" + sheets[i].dimension + "\"/>") + "<sheetData>" +
                         sheets[i].rows + "</sheetData>" + sheets[i].after + "</worksheet>"});
  }
  book += "</sheets></workbook>";
  if (!shared.empty()) {
    std::string sst = std::string("<?xml version=\"1.0\"?><sst ") + kSheetNs + ">";
    for (const auto& s : shared) sst += "<si><t xml:space=\"preserve\">" + xml_escape(s) + "</t></si>";
    items.push_back({"xl/sharedStrings.xml", sst + "</sst>"});
    rels += std::string("<Relationship Id=\"rIdS\" Type=\"") + kRelBase + "sharedStrings\" Target=\"sharedStrings.xml\"/>";
  }
  if (!styles.empty()) {
    items.push_back({"xl/styles.xml", std::string("<?xml version=\"1.0\"?><styleSheet ") + kSheetNs + ">" + styles + "</styleSheet>"});
    rels += std::string("<Relationship Id=\"rIdT\" Type=\"") + kRelBase + "styles\" Target=\"styles.xml\"/>";
  }
  items.push_back({"xl/workbook.xml", book});
  items.push_back({"xl/_rels/workbook.xml.rels", rels + "</Relationships>"});
  for (auto& e : extra) items.push_back(std::move(e));
  return zip_bytes(items);
}

std::string ods_bytes(const std::string& tables, const std::string& styles, std::vector<ZipItem> extra) {
  std::vector<ZipItem> items = {
      {"mimetype", "application/vnd.oasis.opendocument.spreadsheet", true},
      {"content.xml",
       "<?xml version=\"1.0\" encoding=\"UTF-8\"?><office:document-content "
       "xmlns:office=\"urn:oasis:names:tc:opendocument:xmlns:office:1.0\" "
       "xmlns:text=\"urn:oasis:names:tc:opendocument:xmlns:text:1.0\" "
       "xmlns:table=\"urn:oasis:names:tc:opendocument:xmlns:table:1.0\" "
       "xmlns:style=\"urn:oasis:names:tc:opendocument:xmlns:style:1.0\" "
       "xmlns:dc=\"http://purl.org/dc/elements/1.1/\" office:version=\"1.3\">"
       "<office:automatic-styles>" + styles + "</office:automatic-styles><office:body><office:spreadsheet>" + tables +
           "</office:spreadsheet></office:body></office:document-content>"},
  };
  bool manifest = false;
  for (const auto& e : extra) manifest |= e.name == "META-INF/manifest.xml";
  if (!manifest)
    items.push_back({"META-INF/manifest.xml",
                     "<?xml version=\"1.0\"?><manifest:manifest xmlns:manifest=\"urn:oasis:names:tc:opendocument:xmlns:manifest:1.0\">"
                     "<manifest:file-entry manifest:full-path=\"/\" manifest:media-type=\"application/vnd.oasis.opendocument.spreadsheet\"/>"
                     "<manifest:file-entry manifest:full-path=\"content.xml\" manifest:media-type=\"text/xml\"/></manifest:manifest>"});
  for (auto& e : extra) items.push_back(std::move(e));
  return zip_bytes(items);
}

}  // namespace mcpread::test
