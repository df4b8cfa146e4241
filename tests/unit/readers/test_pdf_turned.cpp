// read_pdf on pages drawing text turned off the horizontal: words drawn at an angle or mirrored
// come out whole, each turned run on a line of its own, where poppler's physical layout alone
// cuts them into the upright lines they cross ("RoRotate") or writes them backwards.
#include "pdf_test_util.hpp"

#include <vector>

using namespace mcpread::readers;
using namespace mcpread::test;
using namespace mcpread::test::pdf_util;

namespace {

// Text at `x y`, its matrix's linear part `a b c d` (Helvetica 14).
std::string shown(const std::string& text, const std::string& matrix, int x, int y) {
  return "BT /F1 14 Tf " + matrix + " " + std::to_string(x) + " " + std::to_string(y) + " Tm (" + text +
         ") Tj ET\n";
}

const std::string upright = "1 0 0 1";

// The page text of a one-page answer (after the header and the marker).
std::string page_text(const ReadOutcome& o) {
  const std::string& t = text(o);
  const auto marker = t.find("\u2500\u2500 Page 1 of 1 \u2500\u2500\n");
  REQUIRE(marker != std::string::npos);
  return t.substr(marker + std::string("\u2500\u2500 Page 1 of 1 \u2500\u2500\n").size());
}

// `text` with each run of spaces as one: the lines a turned run crossed keep their words, not
// their spacing.
std::string squeezed(const std::string& text) {
  std::string out;
  for (const char c : text)
    if (c != ' ' || out.empty() || out.back() != ' ') out += c;
  return out;
}

}  // namespace

TEST_CASE("pdf: turned text comes out in whole words") {
  TempDir dir;
  PdfPage page;
  SUBCASE("a line drawn at 30 degrees across upright lines") {
    // The slanted line starts below the upright ones and climbs through both.
    page.content = shown("Upright heading over the slanted line", upright, 72, 560) +
                   shown("Second upright line crossed by it too", upright, 72, 530) +
                   shown("Slanted words stay whole", "0.866 0.5 -0.5 0.866", 150, 500) +
                   shown("Closing upright line", upright, 72, 300);
    dir.write("slanted.pdf", make_pdf({page}));
    const auto o = read(dir, "slanted.pdf");
    REQUIRE_FALSE(o.is_error);
    const std::string body = squeezed(page_text(o));
    // Each word of the slanted line whole, on a line of its own (poppler cuts them: "S", "l a nte").
    CHECK(body.find("\nSlanted\nwords\nstay\nwhole\n") != std::string::npos);
    CHECK(body.find("Upright heading over the slanted line\n") != std::string::npos);
    // The line the slanted one cut through keeps its words, though not on one line.
    CHECK(body.find("Second upright line\n") != std::string::npos);
    CHECK(body.find("crossed by it too\n") != std::string::npos);
    CHECK(body.find("Closing upright line") != std::string::npos);
  }
  SUBCASE("a mirrored line beside an upright one") {
    // Mirrored by the CTM: its glyphs run leftwards from x = 300, the upright line's from 320.
    page.content = "q -1 0 0 1 300 0 cm\n" + shown("Mirrored words read forwards", upright, 0, 500) + "Q\n" +
                   shown("Upright neighbour", upright, 320, 500) + shown("Another upright line", upright, 72, 300);
    dir.write("mirrored.pdf", make_pdf({page}));
    const auto o = read(dir, "mirrored.pdf");
    REQUIRE_FALSE(o.is_error);
    const std::string body = page_text(o);
    // poppler alone writes "sdrawrof daer sdrow derorriM   Upright neighbour".
    CHECK(body.find("\nMirrored words read forwards\n") != std::string::npos);
    CHECK(body.find("Upright neighbour") != std::string::npos);
    CHECK(body.find("Another upright line") != std::string::npos);
    CHECK(body.find("sdrow") == std::string::npos);  // nothing backwards
  }
  SUBCASE("a page without turned text keeps the physical layout: columns line up") {
    page.content = shown("Name", upright, 72, 700) + shown("Price", upright, 400, 700) +
                   shown("Apples", upright, 72, 680) + shown("3.20", upright, 400, 680);
    dir.write("table.pdf", make_pdf({page}));
    const auto o = read(dir, "table.pdf");
    REQUIRE_FALSE(o.is_error);
    const std::string body = page_text(o);
    // "Name     Price" over "Apples   3.20": the second column starts at one place in both lines.
    const auto price = body.find("Price"), amount = body.find("3.20");
    REQUIRE((price != std::string::npos && amount != std::string::npos));
    const auto column = [&](std::size_t at) { return at - (body.rfind('\n', at) + 1); };
    CHECK(column(price) == column(amount));
    CHECK(body.find("Name  ") == 0);
  }
}
