#include "slides_fixtures.hpp"

namespace mcpread::test {
namespace {

constexpr const char* kPresentationNs =
    "xmlns:p=\"http://schemas.openxmlformats.org/presentationml/2006/main\" "
    "xmlns:a=\"http://schemas.openxmlformats.org/drawingml/2006/main\" "
    "xmlns:r=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships\"";
constexpr const char* kRelsOpen =
    "<?xml version=\"1.0\"?><Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\">";
constexpr const char* kRelType = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/";

std::string rel(const std::string& id, const std::string& type, const std::string& target) {
  return "<Relationship Id=\"" + id + "\" Type=\"" + kRelType + type + "\" Target=\"" + target + "\"/>";
}

}  // namespace

std::string pptx_bytes(const std::vector<SlideSpec>& slides, std::vector<ZipItem> extra) {
  std::string ids, rels;
  std::vector<ZipItem> items = {
      {"[Content_Types].xml",
       "<?xml version=\"1.0\"?><Types xmlns=\"http://schemas.openxmlformats.org/package/2006/content-types\">"
       "<Default Extension=\"xml\" ContentType=\"application/xml\"/></Types>"},
      {"_rels/.rels", std::string(kRelsOpen) + rel("rId1", "officeDocument", "ppt/presentation.xml") + "</Relationships>"},
  };
  for (std::size_t i = 0; i < slides.size(); ++i) {
    const std::string n = std::to_string(i + 1);
    ids += "<p:sldId id=\"" + std::to_string(256 + i) + "\" r:id=\"rId" + n + "\"/>";
    rels += rel("rId" + n, "slide", "slides/slide" + n + ".xml");
    items.push_back({"ppt/slides/slide" + n + ".xml",
                     std::string("<?xml version=\"1.0\" encoding=\"UTF-8\"?><p:sld ") + kPresentationNs +
                         (slides[i].hidden ? " show=\"0\"" : "") + "><p:cSld><p:spTree>" + slides[i].shapes +
                         "</p:spTree></p:cSld></p:sld>"});
    std::string slide_rels = slides[i].rels;
    if (!slides[i].notes.empty()) {
      slide_rels += rel("rNotes", "notesSlide", "../notesSlides/notesSlide" + n + ".xml");
      items.push_back({"ppt/notesSlides/notesSlide" + n + ".xml",
                       std::string("<?xml version=\"1.0\"?><p:notes ") + kPresentationNs +
                           "><p:cSld><p:spTree><p:sp><p:nvSpPr><p:nvPr><p:ph type=\"sldImg\"/></p:nvPr></p:nvSpPr></p:sp>"
                           "<p:sp><p:nvSpPr><p:nvPr><p:ph type=\"body\" idx=\"1\"/></p:nvPr></p:nvSpPr><p:txBody><a:p><a:r><a:t>" +
                           slides[i].notes + "</a:t></a:r></a:p></p:txBody></p:sp></p:spTree></p:cSld></p:notes>"});
    }
    if (!slide_rels.empty())
      items.push_back({"ppt/slides/_rels/slide" + n + ".xml.rels", std::string(kRelsOpen) + slide_rels + "</Relationships>"});
  }
  items.push_back({"ppt/presentation.xml", std::string("<?xml version=\"1.0\"?><p:presentation ") + kPresentationNs +
                                               "><p:sldIdLst>" + ids + "</p:sldIdLst></p:presentation>"});
  items.push_back({"ppt/_rels/presentation.xml.rels", std::string(kRelsOpen) + rels + "</Relationships>"});
  for (auto& e : extra) items.push_back(std::move(e));
  return zip_bytes(items);
}

std::string odp_bytes(const std::vector<SlideSpec>& slides, std::vector<ZipItem> extra) {
  std::string pages;
  for (std::size_t i = 0; i < slides.size(); ++i) {
    pages += "<draw:page draw:name=\"page" + std::to_string(i + 1) + "\"" +
             (slides[i].hidden ? " draw:style-name=\"dpHidden\"" : "") + ">" + slides[i].shapes;
    if (!slides[i].notes.empty())
      pages += "<presentation:notes><draw:frame presentation:class=\"notes\"><draw:text-box><text:p>" + slides[i].notes +
               "</text:p></draw:text-box></draw:frame></presentation:notes>";
    pages += "</draw:page>";
  }
  std::vector<ZipItem> items = {
      {"mimetype", "application/vnd.oasis.opendocument.presentation", true},
      {"content.xml",
       "<?xml version=\"1.0\" encoding=\"UTF-8\"?><office:document-content "
       "xmlns:office=\"urn:oasis:names:tc:opendocument:xmlns:office:1.0\" "
       "xmlns:text=\"urn:oasis:names:tc:opendocument:xmlns:text:1.0\" "
       "xmlns:table=\"urn:oasis:names:tc:opendocument:xmlns:table:1.0\" "
       "xmlns:draw=\"urn:oasis:names:tc:opendocument:xmlns:drawing:1.0\" "
       "xmlns:presentation=\"urn:oasis:names:tc:opendocument:xmlns:presentation:1.0\" "
       "xmlns:xlink=\"http://www.w3.org/1999/xlink\" xmlns:svg=\"urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0\" "
       "xmlns:style=\"urn:oasis:names:tc:opendocument:xmlns:style:1.0\" office:version=\"1.3\">"
       "<office:automatic-styles><style:style style:name=\"dpHidden\" style:family=\"drawing-page\">"
       "<style:drawing-page-properties presentation:visibility=\"hidden\"/></style:style></office:automatic-styles>"
       "<office:body><office:presentation>" + pages + "</office:presentation></office:body></office:document-content>"},
      {"META-INF/manifest.xml",
       "<?xml version=\"1.0\"?><manifest:manifest xmlns:manifest=\"urn:oasis:names:tc:opendocument:xmlns:manifest:1.0\">"
       "<manifest:file-entry manifest:full-path=\"/\" manifest:media-type=\"application/vnd.oasis.opendocument.presentation\"/>"
       "</manifest:manifest>"},
  };
  for (auto& e : extra) items.push_back(std::move(e));
  return zip_bytes(items);
}

std::string epub_bytes(const std::string& title, const std::string& author, const std::vector<ChapterSpec>& chapters,
                       std::vector<ZipItem> extra) {
  std::string manifest, spine, nav;
  for (std::size_t i = 0; i < chapters.size(); ++i) {
    const std::string id = "c" + std::to_string(i + 1);
    manifest += "<item id=\"" + id + "\" href=\"" + chapters[i].file + "\" media-type=\"application/xhtml+xml\"/>";
    spine += "<itemref idref=\"" + id + "\"/>";
    if (!chapters[i].title.empty()) nav += "<li><a href=\"" + chapters[i].file + "\">" + chapters[i].title + "</a></li>";
  }
  std::vector<ZipItem> items = {
      {"mimetype", "application/epub+zip", true},
      {"META-INF/container.xml",
       "<?xml version=\"1.0\"?><container version=\"1.0\" xmlns=\"urn:oasis:names:tc:opendocument:xmlns:container\">"
       "<rootfiles><rootfile full-path=\"OEBPS/content.opf\" media-type=\"application/oebps-package+xml\"/></rootfiles>"
       "</container>"},
      {"OEBPS/content.opf",
       "<?xml version=\"1.0\"?><package xmlns=\"http://www.idpf.org/2007/opf\" version=\"3.0\" unique-identifier=\"id\">"
       "<metadata xmlns:dc=\"http://purl.org/dc/elements/1.1/\"><dc:identifier id=\"id\">x</dc:identifier>"
       "<dc:title>" + title + "</dc:title>" + (author.empty() ? std::string() : "<dc:creator>" + author + "</dc:creator>") +
           "</metadata><manifest><item id=\"nav\" href=\"nav.xhtml\" media-type=\"application/xhtml+xml\" properties=\"nav\"/>" +
           manifest + "</manifest><spine>" + spine + "</spine></package>"},
      {"OEBPS/nav.xhtml",
       "<?xml version=\"1.0\"?><html xmlns=\"http://www.w3.org/1999/xhtml\" xmlns:epub=\"http://www.idpf.org/2007/ops\">"
       "<body><nav epub:type=\"toc\"><ol>" + nav + "</ol></nav></body></html>"},
  };
  for (const auto& c : chapters)
    if (!c.file.starts_with("../"))  // a file outside the package is listed, never written
      items.push_back({"OEBPS/" + c.file, "<?xml version=\"1.0\"?><html xmlns=\"http://www.w3.org/1999/xhtml\"><head><title>x</title>"
                                        "</head><body>" + c.body + "</body></html>"});
  for (auto& e : extra) items.push_back(std::move(e));
  return zip_bytes(items);
}

}  // namespace mcpread::test
