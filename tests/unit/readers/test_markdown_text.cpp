// escape_list_numbers: a document's own "1. " at a line's start escaped, so that it does not read
// as the numbering a reader writes; numbers that open no list left alone.
#include "markdown_text.hpp"

#include <doctest/doctest.h>

using mcpread::readers::escape_list_numbers;

TEST_CASE("escape_list_numbers") {
  SUBCASE("a line's leading ordered-list marker is escaped, on every line") {
    CHECK(escape_list_numbers("1. one") == "1\\. one");
    CHECK(escape_list_numbers("2) two\n10.\tten\nplain\n  3. indented") == "2\\) two\n10\\.\tten\nplain\n  3\\. indented");
    CHECK(escape_list_numbers("7.") == "7\\.");
    CHECK(escape_list_numbers("123456789. nine digits") == "123456789\\. nine digits");
  }
  SUBCASE("numbers that open no list are left alone") {
    CHECK(escape_list_numbers("3.5 kg") == "3.5 kg");
    CHECK(escape_list_numbers("1.2.3") == "1.2.3");
    CHECK(escape_list_numbers("1234567890. ten digits") == "1234567890. ten digits");
    CHECK(escape_list_numbers("see 1. below") == "see 1. below");
    CHECK(escape_list_numbers("1\\. escaped") == "1\\. escaped");
    CHECK(escape_list_numbers(". 1") == ". 1");
    CHECK(escape_list_numbers("") == "");
    CHECK(escape_list_numbers("a\n\nb\n") == "a\n\nb\n");
  }
}
