// PowerPoint 97-2003 decks through read_file: slides in show order from the current edit's
// persist directory (a later edit's slide replacing the earlier), titles, bulleted body text,
// text boxes, speaker notes and Unicode text; the refusals (encrypted, an OLE2 file without a
// deck) and damaged records. The decks are built here, record by record ([MS-PPT]), inside
// doc_fixtures' compound file. libolecf is not in the Windows build: there the refusal is checked.
#include "doc_fixtures.hpp"
#include "fixtures.hpp"
#include "reader_fixtures.hpp"
#include "tool_wording.hpp"

#include "mcpread/readers/read.hpp"

#include <doctest/doctest.h>

#include <string>
#include <variant>

using namespace mcpread::readers;
using namespace mcpread::test;

namespace {

ReadOutcome read_ppt(const TempDir& dir, const std::string& name, const std::string& bytes, std::string pages = {}) {
  dir.write(name, bytes);
  ReadRequest request = tool_worded(ReadRequest{});
  request.file_path = name;
  request.pages = std::move(pages);
  return read_file(roots_of(dir), request, ReadLimits{}, CancelToken{});
}

std::string u16le(std::uint32_t v) { return {static_cast<char>(v & 0xFF), static_cast<char>(v >> 8 & 0xFF)}; }
std::string u32le(std::uint32_t v) { return u16le(v & 0xFFFF) + u16le(v >> 16); }

std::string atom(std::uint16_t type, const std::string& data, std::uint16_t instance = 0) {
  return u16le(static_cast<std::uint32_t>(instance) << 4) + u16le(type) + u32le(static_cast<std::uint32_t>(data.size())) +
         data;
}
std::string container(std::uint16_t type, const std::string& children, std::uint16_t instance = 0) {
  return u16le(0xF | static_cast<std::uint32_t>(instance) << 4) + u16le(type) +
         u32le(static_cast<std::uint32_t>(children.size())) + children;
}
std::string header(std::uint32_t text_type) { return atom(0x0F9F, u32le(text_type)); }
std::string chars(const std::u16string& text) {
  std::string data;
  for (const char16_t c : text) data += u16le(c);
  return atom(0x0FA0, data);
}
std::string bytes_atom(const std::string& latin1) { return atom(0x0FA8, latin1); }
std::string slide_persist(std::uint32_t persist, std::uint32_t id) {
  return atom(0x03F3, u32le(persist) + u32le(0) + u32le(0) + u32le(id) + u32le(0));
}
// A slide (or notes slide) container: its SlideAtom naming its notes, and text boxes.
std::string slide(std::uint16_t type, std::uint32_t notes_id, const std::string& boxes) {
  const std::string slide_atom = atom(type == 0x03EE ? 0x03EF : 0x03F1, std::string(16, '\0') + u32le(notes_id) + u32le(0));
  return container(type, slide_atom + container(0x040C, boxes));
}
std::string text_box(std::uint32_t text_type, const std::u16string& text) {
  return container(0xF00D, header(text_type) + chars(text));
}

struct Deck {
  std::string stream;
  std::uint32_t edit = 0;  // offset of the newest UserEditAtom
};

// Appends an edit: `objects` (persist id, record) stored, their persist directory, the
// UserEditAtom pointing back at `previous`.
std::uint32_t add_edit(Deck& deck, const std::vector<std::pair<std::uint32_t, std::string>>& objects,
                       std::uint32_t previous) {
  std::string directory;
  for (const auto& [id, record] : objects) {
    directory += u32le(id | 1u << 20) + u32le(static_cast<std::uint32_t>(deck.stream.size()));
    deck.stream += record;
  }
  const auto directory_at = static_cast<std::uint32_t>(deck.stream.size());
  deck.stream += atom(0x1772, directory);
  const auto edit_at = static_cast<std::uint32_t>(deck.stream.size());
  deck.stream += atom(0x0FF5, u32le(256) + u16le(0) + std::string(1, '\0') + std::string(1, '\3') + u32le(previous) +
                                  u32le(directory_at) + u32le(1) + u32le(5) + u16le(1) + u16le(0));
  return edit_at;
}

std::string current_user(std::uint32_t edit, std::uint32_t token = 0xE391C05F) {
  return atom(0x0FF6, u32le(20) + u32le(token) + u32le(edit) + u16le(0) + u16le(0) + u16le(0x03F4) + u16le(3) + u32le(0));
}

// Two slides and the first one's notes, as PowerPoint 2003 writes them.
Deck two_slides() {
  Deck deck;
  const std::string slides = container(0x0FF0,
                                       slide_persist(2, 256) + header(0) + chars(u"Quarterly results") + header(1) +
                                           bytes_atom("Revenue up\rCosts down\x0bmostly") + slide_persist(3, 257) +
                                           header(6) + chars(u"Итоги года"),
                                       0);
  const std::string notes = container(0x0FF0, slide_persist(4, 300), 2);
  deck.edit = add_edit(deck,
                       {{1, container(0x03E8, slides + notes)},
                        {2, slide(0x03EE, 300, text_box(4, u"A text box"))},
                        {3, slide(0x03EE, 0, "")},
                        {4, slide(0x03F0, 0, text_box(2, u"Say hello first."))}},
                       0);
  return deck;
}

std::string file_of(const Deck& deck, std::uint32_t token = 0xE391C05F) {
  return compound_file({{u"PowerPoint Document", deck.stream}, {u"Current User", current_user(deck.edit, token)}});
}

}  // namespace

#if defined(_WIN32)
TEST_CASE("ppt: the Windows build says it has no libolecf") {
  TempDir dir;
  const auto o = read_ppt(dir, "a.ppt", file_of(two_slides()));
  CHECK(o.is_error);
  CHECK(first_text(o).find("needs libolecf, which the Windows build of mcp-read does not include") != std::string::npos);
}
#else
TEST_CASE("ppt: slides in show order") {
  TempDir dir;
  SUBCASE("titles, bulleted body text, text boxes, notes, Unicode") {
    const auto o = read_ppt(dir, "a.ppt", file_of(two_slides()));
    REQUIRE_FALSE(o.is_error);
    CHECK(first_text(o) == "PowerPoint 97-2003 presentation " + (dir.path() / "a.ppt").string() +
                            ": 2 slides.\n\n── Slide 1 of 2: Quarterly results ──\n\n- Revenue up\n- Costs down\n"
                            "  mostly\n\nA text box\n\n[Notes: Say hello first.]\n\n── Slide 2 of 2: Итоги года ──"
                            "\n\n[Slides 1-2 of 2. End of document.]");
    CHECK(o.meta["kind"] == "ppt");
    CHECK(o.meta["slides"] == 2);
  }
  SUBCASE("pages picks slides") {
    const auto o = read_ppt(dir, "b.ppt", file_of(two_slides()), "2");
    REQUIRE_FALSE(o.is_error);
    CHECK(first_text(o).find("── Slide 2 of 2: Итоги года ──") != std::string::npos);
    CHECK(first_text(o).find("Quarterly") == std::string::npos);
  }
  SUBCASE("a later edit's slide replaces the one saved before it") {
    Deck deck = two_slides();
    deck.edit = add_edit(deck, {{2, slide(0x03EE, 300, text_box(4, u"The edited box"))}}, deck.edit);
    const std::string text = first_text(read_ppt(dir, "c.ppt", file_of(deck)));
    CHECK(text.find("The edited box") != std::string::npos);
    CHECK(text.find("A text box") == std::string::npos);
  }
  SUBCASE("a number typed at a line's start is escaped, a title's not") {
    Deck deck;
    const std::string slides = container(
        0x0FF0, slide_persist(2, 256) + header(0) + chars(u"1. Intro") + header(1) + bytes_atom("1. typed\r2) two\x0b" "3. broken"), 0);
    const std::string notes = container(0x0FF0, slide_persist(3, 300), 2);
    deck.edit = add_edit(deck,
                         {{1, container(0x03E8, slides + notes)},
                          {2, slide(0x03EE, 300, text_box(4, u"4. box\r3.5 kg"))},
                          {3, slide(0x03F0, 0, text_box(2, u"7. noted"))}},
                         0);
    const std::string text = first_text(read_ppt(dir, "e.ppt", file_of(deck)));
    CHECK(text.find("── Slide 1 of 1: 1. Intro ──\n\n- 1\\. typed\n- 2\\) two\n  3\\. broken\n\n4\\. box\n3.5 kg\n\n"
                    "[Notes: 7\\. noted]") != std::string::npos);
  }
  SUBCASE("without a Current User stream the slide list is found in the stream") {
    const std::string file = compound_file({{u"PowerPoint Document", two_slides().stream}});
    const std::string text = first_text(read_ppt(dir, "d.ppt", file));
    CHECK(text.find("── Slide 1 of 2: Quarterly results ──\n\n- Revenue up") != std::string::npos);
  }
}

TEST_CASE("ppt: refusals and damage") {
  TempDir dir;
  SUBCASE("an encrypted deck") {
    const auto o = read_ppt(dir, "e.ppt", file_of(two_slides(), 0xF3D1C4DF));
    CHECK(o.is_error);
    CHECK(first_text(o) == "Cannot read " + (dir.path() / "e.ppt").string() +
                            " as a PowerPoint 97-2003 presentation: it is encrypted (password-protected).");
  }
  SUBCASE("an OLE2 file without a deck") {
    const auto o = read_ppt(dir, "w.ppt", compound_file({{u"WordDocument", std::string(600, 'x')}}));
    CHECK(o.is_error);
    CHECK(first_text(o).find("it is an OLE2 file without a PowerPoint document in it") != std::string::npos);
  }
  SUBCASE("records past their container's end, loops in the edit chain, nesting past the limit") {
    Deck deck = two_slides();
    const std::uint32_t first_edit = deck.edit;
    deck.stream += atom(0x0FF0, std::string(4, 'x')).substr(0, 10);  // cut short
    std::string deep = text_box(4, u"deep");
    for (int i = 0; i < 100; ++i) deep = container(0xF004, deep);
    deck.edit = add_edit(deck, {{3, slide(0x03EE, 0, deep)}}, deck.edit);
    deck.stream.replace(first_edit + 16, 4, u32le(deck.edit));  // the first edit points back at the newest: a loop
    const auto o = read_ppt(dir, "h.ppt", file_of(deck));
    REQUIRE_FALSE(o.is_error);
    CHECK(first_text(o).find("── Slide 2 of 2: Итоги года ──") != std::string::npos);
    CHECK(first_text(o).find("deep") == std::string::npos);  // beyond the walk's depth
  }
  SUBCASE("a file named .ppt that is no OLE2 file is not read as a deck") {
    const auto o = read_ppt(dir, "t.ppt", "just some text\n");
    CHECK(o.meta["kind"] == "text");
  }
}
#endif
