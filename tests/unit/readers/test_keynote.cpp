// Keynote presentations through read_file and the plugin of the Document Liberation Project's
// importers, on libetonyek's Keynote 5 test deck (tests/data/revenge/): slides as PPTX decks are
// answered, `pages` and `limit`, the package recognised whatever its name, a Keynote met by the
// word-processor reader. The Windows build has no plugin: there its refusal is checked.
#include "revenge_samples.hpp"

#include <string>

using namespace mcpread::readers;
using namespace mcpread::test;

#if defined(_WIN32)
TEST_CASE("keynote: the Windows build refuses Keynote presentations") {
  TempDir dir;
  const auto o = read_deck(dir, "talk.key", sample("keynote5-file.key"));
  CHECK(error_text(o) == "Cannot read " + (dir.path() / "talk.key").string() +
                             " as a Keynote presentation: the Windows build of mcp-read does not include librevenge's "
                             "importers, which read it: open it in LibreOffice and save it as PDF or ODP, or use "
                             "mcp-read on Linux.");
}
#else
TEST_CASE("keynote: Keynote presentations slide by slide") {
  TempDir dir;
  const std::string deck = sample("keynote5-file.key");
  SUBCASE("every slide, its text objects apart, paragraphs a line each") {
    const auto o = read_deck(dir, "talk.key", deck);
    REQUIRE_FALSE(o.is_error);
    CHECK(first_text(o) == "Keynote presentation " + (dir.path() / "talk.key").string() +
                               ": 2 slides.\n\n── Slide 1 of 2 ──\n\nTitle slide\n\nSubtitle\n\n── Slide 2 of 2 ──\n\n"
                               "Capitalized title\n\ntext in bold and italic, continuing in italic only, until now\n"
                               "colored text\nmore colored text here\n\n[Slides 1-2 of 2. End of document.]");
    CHECK(o.meta["kind"] == "keynote");
    CHECK(o.meta["slides"] == 2);
    CHECK(o.meta["mime"] == "application/vnd.apple.keynote");
  }
  SUBCASE("pages picks slides, and limit caps them with the way on") {
    const auto o = read_deck(dir, "talk.key", deck, "2");
    REQUIRE_FALSE(o.is_error);
    CHECK(first_text(o).ends_with("── Slide 2 of 2 ──\n\nCapitalized title\n\ntext in bold and italic, continuing in "
                                  "italic only, until now\ncolored text\nmore colored text here\n\n"
                                  "[Slide 2 of 2. End of the selection.]"));
    dir.write("one.key", deck);
    ReadRequest request = tool_worded(ReadRequest{});
    request.file_path = "one.key";
    request.limit = 1;
    const auto first = read_file(roots_of(dir), request, ReadLimits{}, CancelToken{});
    CHECK(first_text(first).ends_with("── Slide 1 of 2 ──\n\nTitle slide\n\nSubtitle\n\n[Slide 1 of 2. To read more, call read again with pages=\"2\".]"));
    CHECK(first.meta["next_pages"] == "2");
  }
  SUBCASE("a Keynote named .zip is one all the same: its index decides") {
    const auto o = read_deck(dir, "talk.zip", deck);
    CHECK(o.meta["kind"] == "keynote");
  }
  SUBCASE("asked for as a word-processor document, it says which reading to ask for") {
    const auto o = read_deck(dir, "talk.key", deck, {}, FileKind{"wordproc"});
    CHECK(error_text(o) == "Cannot read " + (dir.path() / "talk.key").string() +
                               " as a word-processor document: it is a Keynote presentation: read it with "
                               "file_type=\"keynote\".");
  }
}
#endif
