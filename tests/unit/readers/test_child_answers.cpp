// What the server takes from a child process's answer (readers/src/child_process.hpp,
// child_json.hpp): a library's reason quoted within bounds and without control characters, and
// numbers from a child's JSON taken only when whole and in range.
#include <doctest/doctest.h>

#include "child_json.hpp"
#include "child_process.hpp"
#include "revenge/revenge_document.hpp"

#include <cstdint>
#include <string>

using mcpread::readers::child_json::whole;
using mcpread::readers::child_process::quotable_reason;
using nlohmann::json;

TEST_CASE("child answers: a library's reason, quoted") {
  SUBCASE("a plain reason is kept as it is") {
    CHECK(quotable_reason("libwpd could not parse it") == "libwpd could not parse it");
    CHECK(quotable_reason("") == "");
  }
  SUBCASE("control characters become single spaces, blanks trimmed") {
    CHECK(quotable_reason("\n bad\r\n\tfile \x1b[31mred\x7f \x01") == "bad file [31mred");
    CHECK(quotable_reason("a\xC2\x85" "b\xC2\x9F\xC2\xA0" "c") == "a b \xC2\xA0" "c");  // C1 controls; NBSP kept
  }
  SUBCASE("invalid UTF-8 is replaced") {
    CHECK(quotable_reason("caf\xE9") == "caf\xEF\xBF\xBD");
  }
  SUBCASE("a long reason is cut at 300 bytes on a character's boundary, with an ellipsis") {
    const std::string cut = quotable_reason(std::string(500, 'x'));
    CHECK(cut == std::string(297, 'x') + "\u2026");
    CHECK(cut.size() == 300);
    std::string accents;
    for (int i = 0; i < 200; ++i) accents += "\xC3\xA9";  // é: two bytes each
    const std::string e = quotable_reason(accents);
    CHECK(e.size() == 296 + 3);  // 148 whole characters in the 297 bytes left for them
    CHECK(e.ends_with("\xC3\xA9\u2026"));
    CHECK(quotable_reason(std::string(300, 'y')) == std::string(300, 'y'));
    CHECK(quotable_reason("abc def", 6) == "abc\u2026");
  }
}

TEST_CASE("child answers: whole numbers in range") {
  CHECK(whole<int>(json(7)) == 7);
  CHECK(whole<int>(json(-3)) == -3);
  CHECK(whole<std::size_t>(json(std::uint64_t{1} << 40)) == std::size_t{1} << 40);
  CHECK(whole(json(6), 1, 6) == 6);
  SUBCASE("out of range, negative for a size, a float, not a number: a json exception") {
    CHECK_THROWS_AS(whole<std::size_t>(json(-1)), json::exception);
    CHECK_THROWS_AS(whole<int>(json(std::int64_t{1} << 40)), json::exception);
    CHECK_THROWS_AS(whole<int>(json(std::uint64_t{0xFFFFFFFFFFFFFFFF})), json::exception);
    CHECK_THROWS_AS(whole<int>(json(1e300)), json::exception);
    CHECK_THROWS_AS(whole<int>(json(1.5)), json::exception);
    CHECK_THROWS_AS(whole<int>(json(true)), json::exception);
    CHECK_THROWS_AS(whole<int>(json("7")), json::exception);
    CHECK_THROWS_AS(whole(json(7), 1, 6), json::exception);
    CHECK_THROWS_AS(whole(json(0), 1, 6), json::exception);
  }
}

#if !defined(_WIN32)
TEST_CASE("child answers: the word-processor plugin's JSON, its numbers checked") {
  using mcpread::readers::revenge::from_plugin_json;
  using mcpread::readers::revenge::RevengeDocument;
  const auto answer = [](const json& level, const json& number, const json& note) {
    return json{{"format", "WordPerfect document"},
                {"notes", {"A note."}},
                {"images", json::array()},
                {"blocks",
                 {{{"type", "list_item"},
                   {"level", level},
                   {"ordered", true},
                   {"number", number},
                   {"list", "1"},
                   {"text", "Item."},
                   {"notes", {note}},
                   {"images", json::array()}}}},
                {"comments", 0},
                {"pictures_not_shown", 0},
                {"text_cut", false}}
        .dump();
  };
  RevengeDocument d;
  REQUIRE(from_plugin_json(answer(2, 3, 0), &d));
  REQUIRE(d.doc.blocks.size() == 1);
  CHECK(d.doc.blocks[0].level == 2);
  CHECK(d.doc.blocks[0].number == 3);
  CHECK(d.doc.blocks[0].notes == std::vector<std::size_t>{0});
  CHECK_FALSE(from_plugin_json(answer(1e300, 3, 0), &d));
  CHECK_FALSE(from_plugin_json(answer(-1, 3, 0), &d));
  CHECK_FALSE(from_plugin_json(answer(std::int64_t{1} << 40, 3, 0), &d));
  CHECK_FALSE(from_plugin_json(answer(2, -1, 0), &d));
  CHECK_FALSE(from_plugin_json(answer(2, 2.5, 0), &d));
  CHECK_FALSE(from_plugin_json(answer(2, 3, -1), &d));
}
#endif
