// parse_page_ranges: the `pages` argument of PDF reads, checked against the page count.
#include "paging/page_ranges.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace mcpread::readers;

namespace {

std::vector<int> pages(std::string_view spec, int count) {
  auto r = parse_page_ranges(spec, count);
  if (auto* e = std::get_if<std::string>(&r)) FAIL_CHECK("unexpected error: " << *e);
  return std::holds_alternative<std::vector<int>>(r) ? std::get<std::vector<int>>(r)
                                                     : std::vector<int>{};
}

std::string error(std::string_view spec, int count) {
  auto r = parse_page_ranges(spec, count);
  if (auto* e = std::get_if<std::string>(&r)) return *e;
  FAIL_CHECK("no error for '" << spec << "'");
  return {};
}

}  // namespace

TEST_CASE("page ranges: valid specs") {
  CHECK(pages("3", 9) == std::vector<int>{3});
  CHECK(pages("1-5", 9) == std::vector<int>{1, 2, 3, 4, 5});
  CHECK(pages("2,4,7-9", 9) == std::vector<int>{2, 4, 7, 8, 9});
  CHECK(pages("7-", 9) == std::vector<int>{7, 8, 9});
  CHECK(pages("9-", 9) == std::vector<int>{9});
  CHECK(pages("4-4", 9) == std::vector<int>{4});
  SUBCASE("whitespace and empty items are tolerated") {
    CHECK(pages("  2 , 4 ,\t7 - 9 ", 9) == std::vector<int>{2, 4, 7, 8, 9});
    CHECK(pages("1,,3,", 9) == std::vector<int>{1, 3});
    CHECK(pages(" 10 - ", 12) == std::vector<int>{10, 11, 12});
  }
  SUBCASE("the order given is kept, duplicates removed") {
    CHECK(pages("5,1-3,2,5", 9) == std::vector<int>{5, 1, 2, 3});
  }
  SUBCASE("dashes models write are hyphens") {
    CHECK(pages("1\u20133", 9) == std::vector<int>{1, 2, 3});
    CHECK(pages("2\u20144", 9) == std::vector<int>{2, 3, 4});
  }
  SUBCASE("leading zeros") { CHECK(pages("03-004", 9) == std::vector<int>{3, 4}); }
  SUBCASE("the whole document") { CHECK(pages("1-", 300).size() == 300); }
}

TEST_CASE("page ranges: errors are complete sentences") {
  CHECK(error("12", 9) == "Page 12 does not exist: the document has 9 pages.");
  CHECK(error("2", 1) == "Page 2 does not exist: the document has 1 page.");
  CHECK(error("5-12", 9) == "Page 12 does not exist: the document has 9 pages.");
  CHECK(error("10-", 9) == "Page 10 does not exist: the document has 9 pages.");
  CHECK(error("99999999999999999999", 9) ==
        "Page 99999999999999999999 does not exist: the document has 9 pages.");
  CHECK(error("0012", 9) == "Page 12 does not exist: the document has 9 pages.");
  CHECK(error("1", 0) == "Page 1 does not exist: the document has 0 pages.");
  CHECK(error("5-2", 9) == "'5-2' is not a page range: use first-last with first \u2264 last.");
  CHECK(error("0", 9) == "Pages are numbered from 1: '0' names page 0.");
  CHECK(error("0-3", 9) == "Pages are numbered from 1: '0-3' names page 0.");
  const std::string use = R"(use pages like "3", "1-5", "2,4,7-9" or "10-".)";
  CHECK(error("abc", 9) == "'abc' is not a page number or range: " + use);
  CHECK(error("-3", 9) == "'-3' is not a page number or range: " + use);
  CHECK(error("1-2-3", 9) == "'1-2-3' is not a page number or range: " + use);
  CHECK(error("1 3", 9) == "'1 3' is not a page number or range: " + use);
  CHECK(error("2.5", 9) == "'2.5' is not a page number or range: " + use);
  CHECK(error("1,x", 9) == "'x' is not a page number or range: " + use);
  CHECK(error("", 9) == "The pages argument is empty: " + use);
  CHECK(error(" , ", 9) == "The pages argument is empty: " + use);
}
