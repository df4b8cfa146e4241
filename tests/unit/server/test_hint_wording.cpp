// The one wording of the readers' hints in the read tool's arguments (server::hint_wording), which
// the read tool and resources/read pass to each read.
#include "hint_wording.hpp"

#include <doctest/doctest.h>

using namespace mcpread::readers;
using mcpread::server::hint_wording;

TEST_CASE("hint wording: the read tool's arguments") {
  const Wording tool = hint_wording;
  SUBCASE("a kind and pages are one request") {
    CHECK(tool.say({.as = FileKind::image, .pages = "3"}) == "call read with file_type=\"image\" and pages=\"3\"");
    CHECK(tool.say({.pages = "21-40"}) == "call read with pages=\"21-40\"");
  }
  SUBCASE("a position is a list of numbers") {
    CHECK(tool.say({.offset = 51}, HintForm::call_again) == "call read again with offset=51");
    CHECK(tool.say({.offset = 7, .limit = 1, .column = 401}, HintForm::arguments) == "offset=7, limit=1, column=401");
  }
  SUBCASE("kinds, paging and charsets") {
    CHECK(tool.say({.as = FileKind::text}, HintForm::Call) == "Call read with file_type=\"text\"");
    CHECK(tool.say({.as = FileKind::text, .paged = true}, HintForm::arguments) ==
          "file_type=\"text\" (and offset/limit)");
    CHECK(tool.say({.encoding = "GB18030"}, HintForm::call_again) == "call read again with encoding=\"GB18030\"");
    CHECK(tool.say({.as = FileKind::text, .encoding = "windows-1252", .encoding_is_example = true}) ==
          "call read with file_type=\"text\" and an encoding such as encoding=\"windows-1252\"");
  }
  SUBCASE("arguments by name, and left out") {
    CHECK(tool.say({.offset = 1, .limit = 1}, HintForm::names) == "offset and limit");
    CHECK(tool.say({.as = FileKind::text, .offset = 1, .pages = "1"}, HintForm::names) == "file_type, offset and pages");
    CHECK(tool.say({.column = 1, .without = true}, HintForm::Call) == "Call read without column");
  }
}
