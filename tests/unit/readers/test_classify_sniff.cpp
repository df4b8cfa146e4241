// Classification asks each registered reader's sniffer: zip-based documents are recognised from
// their entries whatever their name, a signature at the start beats one found further in.
#include "fixtures.hpp"
#include "office_fixtures.hpp"
#include "reader_fixtures.hpp"

#include "mcpread/readers/classify.hpp"
#include "mcpread/readers/read.hpp"
#include "mcpread/readers/registry.hpp"

#include <doctest/doctest.h>

#include <string>
#include <variant>

using namespace mcpread::readers;
using namespace mcpread::test;

namespace {

Classification cls(std::string_view name, const std::string& bytes) {
  const std::span<const unsigned char> head(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size());
  return classify(name, head, bytes.size());
}

const std::string kDocxMime = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
const std::string kOdtMime = "application/vnd.oasis.opendocument.text";

std::string docx() { return docx_bytes("<w:p><w:r><w:t>Hello from Word</w:t></w:r></w:p>"); }

}  // namespace

TEST_CASE("classify sniff: zip packages by their entries") {
  SUBCASE("a DOCX without an extension, or named .zip or .bin, is a Word document") {
    for (const char* name : {"report", "report.zip", "report.bin"}) {
      CAPTURE(name);
      const Classification c = cls(name, docx());
      CHECK(c.kind.name() == "docx");
      CHECK(c.mime == kDocxMime);
      CHECK(c.description == "Microsoft Word document (DOCX)");
    }
  }
  SUBCASE("word/ parts with [Content_Types].xml are enough, in any order") {
    const std::string bytes = zip_bytes({{"[Content_Types].xml", "<Types/>"}, {"word/styles.xml", "<w:styles/>"}});
    CHECK(cls("x", bytes).kind.name() == "docx");
  }
  SUBCASE("[Content_Types].xml alone is a Word document only when the name says so") {
    const std::string bytes = zip_bytes({{"[Content_Types].xml", "<Types/>"}, {"custom/data.xml", "<w/>"}});
    CHECK(cls("x.docx", bytes).kind.name() == "docx");
    CHECK(cls("x", bytes).kind.name() != "docx");
  }
  SUBCASE("what the entries say wins over the name: an Excel package named .docx is a workbook") {
    const std::string bytes = zip_bytes({{"[Content_Types].xml", "<Types/>"}, {"xl/workbook.xml", "<w/>"}});
    CHECK(cls("x.docx", bytes).kind.name() == "xlsx");
    CHECK(cls("x", bytes).kind.name() == "xlsx");
  }
  SUBCASE("an ODT without an extension is an OpenDocument text, by its mimetype entry") {
    const Classification c = cls("letter", odt_bytes("<text:p>Hi</text:p>"));
    CHECK(c.kind.name() == "odt");
    CHECK(c.mime == kOdtMime);
    CHECK(c.description == "OpenDocument text");
  }
  SUBCASE("another ODF type or a compressed mimetype is not an ODT") {
    CHECK(cls("s", zip_bytes({{"mimetype", "application/vnd.oasis.opendocument.spreadsheet", true}})).kind.name() !=
          "odt");
    CHECK(cls("t", zip_bytes({{"mimetype", kOdtMime + std::string(200, ' '), false}})).kind.name() != "odt");
  }
  SUBCASE("a plain zip is an archive") {
    CHECK(cls("a", zip_bytes({{"a.txt", "hello"}})).kind == FileKind{"archive"});
  }
  SUBCASE("an OLE2 compound file is a document only when named as one") {
    const std::string ole2 = std::string("\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1", 8) + std::string(504, '\0');
    CHECK(cls("a.docx", ole2).kind.name() == "docx");
    CHECK(cls("a.odt", ole2).kind.name() == "odt");
    CHECK(cls("a", ole2).kind.name() != "docx");
  }
}

TEST_CASE("classify sniff: a signature at the start wins over one found further in") {
  // A stored zip entry holding a PDF puts "%PDF-" within the first KiB of a binary file.
  const std::string bytes =
      zip_bytes({{"word/document.xml", "<w:document/>", true}, {"a.pdf", "%PDF-1.4\n", true}});
  CHECK(cls("x", bytes).kind.name() == "docx");
  CHECK(cls("x", std::string(8, '\0') + "%PDF-1.4\n").kind == FileKind::pdf);
}

TEST_CASE("classify sniff: the registry's sniffers") {
  SUBCASE("every built-in binary format has its reader's sniffer") {
    for (const char* kind : {"image", "pdf", "notebook", "audio", "docx", "odt"}) {
      CAPTURE(kind);
      const Reader* r = reader_registry().find(std::string_view(kind));
      REQUIRE(r != nullptr);
      CHECK((r->sniff != nullptr));
    }
  }
  SUBCASE("a guess is kept only when no sniffer anchors the bytes") {
    Sniffed s;
    const std::string text = "quoted %PDF-1.4 in text";
    const std::span<const unsigned char> head(reinterpret_cast<const unsigned char*>(text.data()), text.size());
    CHECK(reader_registry().sniff({head, "", true}, &s) == nullptr);
    const Reader* r = reader_registry().sniff({head, "pdf", true}, &s);
    REQUIRE(r != nullptr);
    CHECK(r->kind == FileKind::pdf);
    CHECK_FALSE(s.anchored);
  }
}

TEST_CASE("classify sniff: an extension-less DOCX reads as a Word document") {
  TempDir dir;
  dir.write("report", docx());
  ReadRequest request;
  request.file_path = "report";
  const ReadOutcome o = read_file(roots_of(dir), request, ReadLimits{}, CancelToken{});
  REQUIRE_FALSE(o.is_error);
  CHECK(o.meta["kind"] == "docx");
  const auto* t = std::get_if<TextBlock>(&o.blocks.at(0));
  REQUIRE(t != nullptr);
  CHECK(t->text.find("Hello from Word") != std::string::npos);
}
