// Drawings through read_file and the plugin of the Document Liberation Project's importers, on
// libvisio's own test documents (tests/data/revenge/: VSD and VSDX drawings): pages as PPTX decks
// are answered, `pages`, pictures as images, file_type=text; the refusals (empty, truncated,
// garbage, an OLE2 file named .pub that is no publication, a Keynote cut short, a forced kind),
// and the plugin's answer parsed from hostile JSON. The Windows build has no plugin: there its
// refusal is checked.
#include "doc_fixtures.hpp"
#include "revenge/revenge_decks.hpp"
#include "revenge_samples.hpp"

#include <string>
#include <utility>
#include <vector>

using namespace mcpread::readers;
using namespace mcpread::test;

#if defined(_WIN32)
TEST_CASE("drawing: the Windows build refuses drawings of the importers") {
  TempDir dir;
  const auto o = read_deck(dir, "a.vsdx", sample("bgcolor.vsdx"));
  CHECK(error_text(o) == "Cannot read " + (dir.path() / "a.vsdx").string() +
                             " as a drawing: the Windows build of mcp-read does not include librevenge's importers, "
                             "which read it: open it in LibreOffice and save it as PDF or ODP, or use mcp-read on "
                             "Linux.");
}
#else
namespace {

// A Visio 2003 XML drawing (VDX) of one shape's text per page, pages named.
std::string vdx(const std::vector<std::pair<std::string, std::string>>& pages) {
  std::string out = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<!-- made for a test -->\n"
                    "<VisioDocument xmlns=\"http://schemas.microsoft.com/visio/2003/core\"><Pages>";
  int id = 0;
  for (const auto& [name, text] : pages) {
    out += "<Page ID=\"" + std::to_string(id++) + "\" NameU=\"" + name + "\" Name=\"" + name +
           "\"><Shapes><Shape ID=\"1\" Type=\"Shape\"><XForm><PinX>2</PinX><PinY>2</PinY><Width>2</Width>"
           "<Height>1</Height></XForm><Text>" + text + "</Text></Shape></Shapes></Page>";
  }
  return out + "</Pages></VisioDocument>\n";
}

}  // namespace

TEST_CASE("drawing: Visio drawings page by page") {
  TempDir dir;
  SUBCASE("a VSDX drawing: its page's name and each text object's text") {
    const auto o = read_deck(dir, "boxes.vsdx", sample("bgcolor.vsdx"));
    REQUIRE_FALSE(o.is_error);
    CHECK(first_text(o) == "Microsoft Visio drawing " + (dir.path() / "boxes.vsdx").string() +
                               ": 1 page.\n\n── Page 1 of 1: Page-1 ──\n\nBlack, no bg\n\nBlack, green bg\n\n"
                               "Black, green bg transparency 60%\n\n[Page 1 of 1. End of document.]");
    CHECK(o.meta["kind"] == "drawing");
    CHECK(o.meta["format"] == "Microsoft Visio drawing");
    CHECK(o.meta["mime"] == "application/vnd.ms-visio.drawing.main+xml");
    CHECK(o.meta["pages"] == 1);
  }
  SUBCASE("a VSD drawing (Visio 2003): fields as their values, spaces ending a line dropped") {
    const auto o = read_deck(dir, "fields.vsd", sample("tdf76829-numeric-format.vsd"));
    REQUIRE_FALSE(o.is_error);
    const std::string text = first_text(o);
    CHECK(text.starts_with("Microsoft Visio drawing " + (dir.path() / "fields.vsd").string() +
                           ": 1 page.\n\n── Page 1 of 1: Page-1 ──\n\nNumber of lines, generic format: 1\n\n"
                           "Number of lines, Number decimal places:: 1.00\n\nNumber of lines, percentage format:\n\n"
                           "Creation date, generic: 07/06/2019\n\n"));
    CHECK(text.ends_with("Creator, lower case: Bartosz Kosiorek\n\n[Page 1 of 1. End of document.]"));
    CHECK(o.meta["mime"] == "application/vnd.visio");
  }
  SUBCASE("embedded bitmaps become images after their page, markers in its text") {
    const auto o = read_deck(dir, "bitmaps.vsd", sample("bitmaps2.vsd"));
    REQUIRE_FALSE(o.is_error);
    CHECK(first_text(o) == "Microsoft Visio drawing " + (dir.path() / "bitmaps.vsd").string() +
                               ": 1 page (2 images).\n\n── Page 1 of 1: 1577 ──\n\n[Image 1]\n\n[Image 2]");
    CHECK(images_in(o) == 2);
    CHECK(o.meta["images"] == 2);
  }
  SUBCASE("file_type=text: the same text, no images") {
    const auto o = read_deck(dir, "bitmaps.vsd", sample("bitmaps2.vsd"), {}, FileKind::text);
    REQUIRE_FALSE(o.is_error);
    CHECK(images_in(o) == 0);
    CHECK(first_text(o).ends_with("[Image 1]\n\n[Image 2]\n\n[Page 1 of 1. End of document.]"));
    CHECK(o.meta["kind"] == "text");
  }
  SUBCASE("a VDX drawing, whatever its name: pages picks pages, the rest named") {
    const std::string two = vdx({{"Plan", "Hello from VDX"}, {"Notes &amp; more", "Second page"}});
    const auto o = read_deck(dir, "plan.xml", two, "1");
    REQUIRE_FALSE(o.is_error);
    CHECK(first_text(o) == "Microsoft Visio drawing " + (dir.path() / "plan.xml").string() +
                               ": 2 pages.\n\n── Page 1 of 2: Plan ──\n\nHello from VDX\n\n[Page 1 of 2. End of the "
                               "selection.]");
    CHECK(o.meta["kind"] == "drawing");
    const auto second = read_deck(dir, "plan.xml", two, "2");
    CHECK(first_text(second).ends_with("── Page 2 of 2: Notes & more ──\n\nSecond page\n\n"
                                       "[Page 2 of 2. End of the selection.]"));
  }
  SUBCASE("a source file that names the element is text, not a drawing") {
    const auto o = read_deck(dir, "parser.cpp", "// reads <VisioDocument> roots\nint x = 1;\n" + vdx({{"P", "t"}}));
    REQUIRE_FALSE(o.is_error);
    CHECK(o.meta["kind"] == "text");
  }
  SUBCASE("a page past the last is refused with the count") {
    const auto o = read_deck(dir, "boxes.vsdx", sample("bgcolor.vsdx"), "3");
    CHECK(error_text(o) == "Page 3 does not exist: the document has 1 page.");
  }
  SUBCASE("the second read of the file comes from the cache, the same") {
    const auto first = read_deck(dir, "again.vsdx", sample("bgcolor.vsdx"));
    ReadRequest request = tool_worded(ReadRequest{});
    request.file_path = "again.vsdx";
    const auto second = read_file(roots_of(dir), request, ReadLimits{}, CancelToken{});
    CHECK(first_text(second) == first_text(first));
  }
}

TEST_CASE("drawing: refusals") {
  TempDir dir;
  const auto prefix = [&dir](const std::string& name, const std::string& what = "a drawing") {
    return "Cannot read " + (dir.path() / name).string() + " as " + what + ": ";
  };
  const std::string none_recognises =
      "none of the importers (libetonyek, libvisio, libmspub, libcdr, libfreehand, libpagemaker, libqxp, libzmf) "
      "recognises it as a drawing, a publication or a presentation.";
  SUBCASE("an empty file named .vsdx") {
    CHECK(error_text(read_deck(dir, "empty.vsdx", "")) == prefix("empty.vsdx") + "the file is empty (0 bytes).");
  }
  SUBCASE("garbage named .vsdx is refused as what it is, before any importer") {
    const auto o = read_deck(dir, "junk.vsdx", std::string(3000, '\x8F'));
    CHECK(o.meta["kind"] == "text");
    CHECK(error_text(o).starts_with((dir.path() / "junk.vsdx").string() +
                                    " is named like a drawing but is not one: its content is a text file"));
  }
  SUBCASE("a VSD cut in half: the OLE2 file no longer opens") {
    const std::string whole = sample("tdf76829-numeric-format.vsd");
    CHECK(error_text(read_deck(dir, "half.vsd", whole.substr(0, whole.size() / 2))) == prefix("half.vsd") + none_recognises);
  }
  SUBCASE("a Keynote cut short: a zip without its directory") {
    const std::string whole = sample("keynote5-file.key");
    const auto o = read_deck(dir, "cut.key", whole.substr(0, 20000));
    CHECK(o.meta["kind"] == "keynote");
    CHECK(error_text(o) == prefix("cut.key", "a Keynote presentation") + none_recognises);
  }
  SUBCASE("an OLE2 file named .pub that holds no publication") {
    const std::string ole2 = compound_file({{u"Contents", std::string(5000, 'x')}, {u"Quill", std::string(100, 'q')}});
    const auto o = read_deck(dir, "flyer.pub", ole2);
    CHECK(o.meta["kind"] == "drawing");
    CHECK(error_text(o) == prefix("flyer.pub") + none_recognises);
  }
  SUBCASE("an SSH public key named .pub is text") {
    const auto o = read_deck(dir, "id_ed25519.pub", "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIB0 user@host\n");
    REQUIRE_FALSE(o.is_error);
    CHECK(o.meta["kind"] == "text");
  }
  SUBCASE("file_type=drawing on plain text says no importer recognises it") {
    const auto o = read_deck(dir, "plain.txt", "Just some text.\n", {}, FileKind{"drawing"});
    CHECK(error_text(o) == prefix("plain.txt") + none_recognises);
  }
}

TEST_CASE("drawing: the plugin's answer is checked before it is used") {
  revenge::ImportedDeck deck;
  const auto parses = [&deck](const std::string& json) { return revenge::deck_from_plugin_json(json, &deck); };
  const std::string page = R"({"name":"P","text":"a  \n\n\n\nb","notes":" n  1 ","images":[0,7]})";
  const std::string image = R"({"mime":"image/png","base64":"iVBORw0KGgo="})";
  SUBCASE("a well-formed answer: text tidied, images out of range dropped") {
    REQUIRE(parses(R"({"format":"F","unit":"slide","pages":[)" + page + R"(],"images":[)" + image +
                   R"(],"pictures_not_shown":3,"text_cut":false})"));
    REQUIRE(deck.deck.sections.size() == 1);
    CHECK(deck.deck.unit == "slide");
    CHECK(deck.deck.sections[0].text == "a\n\nb");
    CHECK(deck.deck.sections[0].notes == "n 1");
    CHECK(deck.deck.sections[0].images == std::vector<std::string>{"image1.png"});
    CHECK(deck.pictures_not_shown == 3);
  }
  SUBCASE("an unknown unit is a page") {
    REQUIRE(parses(R"({"format":"F","unit":"chapter","pages":[],"images":[],"pictures_not_shown":0,"text_cut":false})"));
    CHECK(deck.deck.unit == "page");
  }
  SUBCASE("malformed answers are refused") {
    CHECK_FALSE(parses("not json"));
    CHECK_FALSE(parses("[]"));
    CHECK_FALSE(parses(R"({"format":"F","unit":"page","pages":[],"images":[],"pictures_not_shown":-1,"text_cut":false})"));
    CHECK_FALSE(parses(R"({"format":"F","unit":"page","pages":[{"name":"P","text":1,"notes":"","images":[]}],)"
                       R"("images":[],"pictures_not_shown":0,"text_cut":false})"));
    CHECK_FALSE(parses(R"({"format":"F","unit":"page","pages":{},"images":[],"pictures_not_shown":0,"text_cut":false})"));
    CHECK_FALSE(parses(R"({"format":"F","pages":[],"images":[],"pictures_not_shown":0,"text_cut":false})"));
  }
}
#endif
