// Readers' hints (read as another kind, go on from an offset, select pages, use a charset) and
// the one wording that names the read tool's arguments. This executable reads with that wording
// installed, as the server does, so the readers' tests assert the texts the server sends.
#include "hint_wording.hpp"

#include "mcpread/readers/hint.hpp"

#include <doctest/doctest.h>

using namespace mcpread::readers;
using mcpread::server::hint_wording;

namespace {

const bool kInstalled = [] {
  mcpread::server::install_hint_wording();
  return true;
}();

}  // namespace

TEST_CASE("hint wording: the read tool's arguments") {
  REQUIRE(kInstalled);
  SUBCASE("a kind and pages are one request") {
    CHECK(say({.as = FileKind::image, .pages = "3"}) == "call read with file_type=\"image\" and pages=\"3\"");
    CHECK(say({.pages = "21-40"}) == "call read with pages=\"21-40\"");
  }
  SUBCASE("a position is a list of numbers") {
    CHECK(say({.offset = 51}, HintForm::call_again) == "call read again with offset=51");
    CHECK(say({.offset = 7, .limit = 1, .column = 401}, HintForm::arguments) == "offset=7, limit=1, column=401");
  }
  SUBCASE("kinds, paging and charsets") {
    CHECK(say({.as = FileKind::text}, HintForm::Call) == "Call read with file_type=\"text\"");
    CHECK(say({.as = FileKind::text, .paged = true}, HintForm::arguments) == "file_type=\"text\" (and offset/limit)");
    CHECK(say({.encoding = "GB18030"}, HintForm::call_again) == "call read again with encoding=\"GB18030\"");
    CHECK(say({.as = FileKind::text, .encoding = "windows-1252", .encoding_is_example = true}) ==
          "call read with file_type=\"text\" and an encoding such as encoding=\"windows-1252\"");
  }
  SUBCASE("arguments by name, and left out") {
    CHECK(say({.offset = 1, .limit = 1}, HintForm::names) == "offset and limit");
    CHECK(say({.as = FileKind::text, .offset = 1, .pages = "1"}, HintForm::names) == "file_type, offset and pages");
    CHECK(say({.column = 1, .without = true}, HintForm::Call) == "Call read without column");
  }
}

TEST_CASE("hint wording: without a tool host the values are said in plain words") {
  set_hint_wording(nullptr);
  const std::string plain = say({.as = FileKind::image, .offset = 3, .pages = "2-4"});
  const std::string plain_start = say({.encoding = "EUC-JP"}, HintForm::Call);
  mcpread::server::install_hint_wording();
  CHECK(plain == "read it again as image, from 3, pages 2-4");
  CHECK(plain_start == "Read it again decoded from EUC-JP");
  CHECK(say({.offset = 3}) == "call read with offset=3");
}
