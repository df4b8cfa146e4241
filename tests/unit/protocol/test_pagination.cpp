#include "mcpread/protocol/pagination.hpp"

#include <doctest/doctest.h>

using namespace mcpread::protocol;

TEST_CASE("cursors") {
  SUBCASE("round trip") { CHECK(decode_cursor("tools", encode_cursor("tools", 50), 120) == 50u); }
  SUBCASE("another list's cursor is refused") {
    CHECK_FALSE(decode_cursor("tools", encode_cursor("resources", 5), 120));
  }
  SUBCASE("past the end, malformed, or foreign") {
    CHECK_FALSE(decode_cursor("tools", encode_cursor("tools", 121), 120));
    CHECK_FALSE(decode_cursor("tools", "mcp-read:tools:", 10));
    CHECK_FALSE(decode_cursor("tools", "mcp-read:tools:1x", 10));
    CHECK_FALSE(decode_cursor("tools", "mcp-read:tools:-1", 10));
    CHECK_FALSE(decode_cursor("tools", "abc", 10));
    CHECK_FALSE(decode_cursor("tools", "", 10));
  }
}
