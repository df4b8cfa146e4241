// What the DjVu reader's child sends back (djvu/djvu_message.hpp): decoded as it was encoded, and
// refused whole when a count runs past the bytes, a page was not asked for or comes twice, an
// image is not of the size it was drawn at, or bytes are left over.
#include "djvu/djvu_message.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

using namespace mcpread::readers::djvu;

namespace {

std::vector<int> first_three(int count) {
  std::vector<int> pages;
  for (int k = 1; k <= std::min(count, 3); ++k) pages.push_back(k);
  return pages;
}

Survey sample() {
  Survey s;
  s.pages = 5;
  s.metadata = {{"author", "Someone"}, {"title", "A Title"}};
  s.texts.push_back({1, 300, 200, 150, "Hello\nworld", "", false});
  s.texts.push_back({3, 0, 0, 0, "", "djvulibre cannot read page 3: Unexpected End Of File", false});
  return s;
}

}  // namespace

TEST_CASE("djvu message: a survey") {
  const std::set<int> known{2};
  const std::string message = encode_survey(sample(), "");
  Survey back;
  std::string why;
  SUBCASE("decoded as it was encoded") {
    REQUIRE(decode_survey(message, first_three, known, &back, &why));
    CHECK(why.empty());
    CHECK(back.pages == 5);
    CHECK(back.metadata == std::map<std::string, std::string>{{"author", "Someone"}, {"title", "A Title"}});
    REQUIRE(back.texts.size() == 2);
    CHECK(back.texts[0].page == 1);
    CHECK(back.texts[0].width == 300);
    CHECK(back.texts[0].height == 200);
    CHECK(back.texts[0].dpi == 150);
    CHECK(back.texts[0].text == "Hello\nworld");
    CHECK(back.texts[1].page == 3);
    CHECK(back.texts[1].why == "djvulibre cannot read page 3: Unexpected End Of File");
    CHECK_FALSE(back.texts[0].late);
    CHECK_FALSE(back.texts[1].late);
  }
  SUBCASE("a page not read in time says so; only a page that failed can be late") {
    Survey s = sample();
    s.texts[1].why = "djvulibre did not finish reading page 3 in time";
    s.texts[1].late = true;
    REQUIRE(decode_survey(encode_survey(s, ""), first_three, known, &back, &why));
    REQUIRE(back.texts.size() == 2);
    CHECK(back.texts[1].late);
    CHECK_FALSE(back.texts[0].late);
    s.texts[0].late = true;  // read, yet late
    CHECK_FALSE(decode_survey(encode_survey(s, ""), first_three, known, &back, &why));
    std::string two = encode_survey(sample(), "");
    two[two.size() - 4] = '\x02';  // the last page's late flag, neither 0 nor 1
    CHECK_FALSE(decode_survey(two, first_three, known, &back, &why));
  }
  SUBCASE("a failure: why") {
    REQUIRE(decode_survey(encode_survey({}, "djvulibre cannot read it: bad"), first_three, known, &back, &why));
    CHECK(why == "djvulibre cannot read it: bad");
  }
  SUBCASE("a byte more or less is refused") {
    CHECK_FALSE(decode_survey(message + '\0', first_three, known, &back, &why));
    CHECK_FALSE(decode_survey(message.substr(0, message.size() - 1), first_three, known, &back, &why));
    CHECK_FALSE(decode_survey(encode_survey({}, "x") + "y", first_three, known, &back, &why));
  }
  SUBCASE("every cut of it is refused") {
    for (std::size_t n = 0; n < message.size(); ++n)
      CHECK_FALSE(decode_survey(message.substr(0, n), first_three, known, &back, &why));
  }
  SUBCASE("a page already known, not selected, twice, or past the count is refused") {
    Survey s = sample();
    s.texts[1].page = 2;  // known
    CHECK_FALSE(decode_survey(encode_survey(s, ""), first_three, known, &back, &why));
    s.texts[1].page = 4;  // not among the first three
    CHECK_FALSE(decode_survey(encode_survey(s, ""), first_three, known, &back, &why));
    s.texts[1].page = 1;  // twice
    CHECK_FALSE(decode_survey(encode_survey(s, ""), first_three, known, &back, &why));
    s = sample();
    s.pages = 0;
    CHECK_FALSE(decode_survey(encode_survey(s, ""), first_three, known, &back, &why));
    s.pages = static_cast<int>(kMaxPages) + 1;
    CHECK_FALSE(decode_survey(encode_survey(s, ""), first_three, known, &back, &why));
  }
  SUBCASE("a page size past 16 bits is refused") {
    Survey s = sample();
    s.texts[0].width = 70000;
    CHECK_FALSE(decode_survey(encode_survey(s, ""), first_three, known, &back, &why));
  }
  SUBCASE("a count past the bytes left is refused") {
    std::string huge = message;
    // The metadata's count sits after the magic, the empty why (4 bytes) and the page count.
    const std::size_t at = std::string_view("mcp-read djvu survey 1\n").size() + 8;
    huge[at + 3] = '\x7f';
    CHECK_FALSE(decode_survey(huge, first_three, known, &back, &why));
  }
  SUBCASE("not a survey") {
    CHECK_FALSE(decode_survey("", first_three, known, &back, &why));
    CHECK_FALSE(decode_survey(encode_renderings({}, ""), first_three, known, &back, &why));
  }
}

TEST_CASE("djvu message: pages drawn") {
  const std::vector<Drawing> drawings{{1, 2, 1}, {4, 1, 1}};
  const std::string two_by_one = ppm_header(2, 1) + std::string(6, '\x80');
  std::vector<Rendering> back;
  std::string why;
  SUBCASE("decoded as encoded: an image, or why not") {
    const std::string message = encode_renderings({{two_by_one, ""}, {"", "no page 4"}}, "");
    REQUIRE(decode_renderings(message, drawings, &back, &why));
    CHECK(why.empty());
    REQUIRE(back.size() == 2);
    CHECK(back[0].ppm == two_by_one);
    CHECK(back[1].why == "no page 4");
    CHECK_FALSE(decode_renderings(message + "x", drawings, &back, &why));
    for (std::size_t n = 0; n < message.size(); ++n) CHECK_FALSE(decode_renderings(message.substr(0, n), drawings, &back, &why));
  }
  SUBCASE("an image of another size, or short, is refused") {
    const std::string one = ppm_header(1, 1) + std::string(3, '\0');
    CHECK_FALSE(decode_renderings(encode_renderings({{one, ""}, {one, ""}}, ""), drawings, &back, &why));
    CHECK_FALSE(decode_renderings(encode_renderings({{two_by_one.substr(0, 14), ""}, {one, ""}}, ""), drawings, &back, &why));
    CHECK(decode_renderings(encode_renderings({{two_by_one, ""}, {one, ""}}, ""), drawings, &back, &why));
  }
  SUBCASE("another count of images is refused") {
    CHECK_FALSE(decode_renderings(encode_renderings({{two_by_one, ""}}, ""), drawings, &back, &why));
  }
  SUBCASE("a failure: why") {
    REQUIRE(decode_renderings(encode_renderings({}, "djvulibre cannot read it: bad"), drawings, &back, &why));
    CHECK(why == "djvulibre cannot read it: bad");
  }
}
