// HTML as text through libxml2's HTML parser (readers/src/html/html_text): tables as Markdown tables
// (pandas DataFrame, Styler and MultiIndex markup as pandas writes it), other markup as plain text.
#include "html/html_text.hpp"

#include <doctest/doctest.h>

#include <string>
#include <thread>
#include <vector>

namespace ht = mcpread::readers::html_text;

namespace {

std::string text(const std::string& html) {
  const ht::Text t = ht::to_text(html);
  REQUIRE(t.error.empty());
  return t.text;
}

std::size_t lines_in(const std::string& s) {
  std::size_t n = s.empty() ? 0 : 1;
  for (char c : s) n += c == '\n' ? 1 : 0;
  return n;
}

}  // namespace

TEST_CASE("html_text: tables as pandas writes them") {
  SUBCASE("DataFrame.to_html, with its scoped style") {
    const std::string html =
        "<div>\n<style scoped>\n    .dataframe tbody tr th:only-of-type {\n        vertical-align: middle;\n    }\n"
        "</style>\n<table border=\"1\" class=\"dataframe\">\n  <thead>\n    <tr style=\"text-align: right;\">\n"
        "      <th></th>\n      <th>name</th>\n      <th>value</th>\n    </tr>\n  </thead>\n  <tbody>\n"
        "    <tr>\n      <th>0</th>\n      <td>a|b</td>\n      <td>1.5</td>\n    </tr>\n"
        "    <tr>\n      <th>1</th>\n      <td>two\n words</td>\n      <td>NaN</td>\n    </tr>\n"
        "  </tbody>\n</table>\n<p>2 rows × 2 columns</p>\n</div>";
    const ht::Text t = ht::to_text(html);
    CHECK(t.tables == 1);
    CHECK(t.text ==
          "| | name | value |\n"
          "| --- | --- | --- |\n"
          "| 0 | a\\|b | 1.5 |\n"
          "| 1 | two words | NaN |\n"
          "\n"
          "2 rows × 2 columns");
  }
  SUBCASE("a Styler: its CSS dropped, &nbsp; in the corner cell") {
    const std::string html =
        "<style type=\"text/css\">\n#T_1a2b3_row0_col0 {\n  background-color: yellow;\n}\n</style>\n"
        "<table id=\"T_1a2b3\">\n  <caption>Totals</caption>\n  <thead>\n    <tr>\n"
        "      <th class=\"blank level0\" >&nbsp;</th>\n"
        "      <th id=\"T_1a2b3_level0_col0\" class=\"col_heading level0 col0\" >a</th>\n"
        "      <th id=\"T_1a2b3_level0_col1\" class=\"col_heading level0 col1\" >b</th>\n    </tr>\n  </thead>\n"
        "  <tbody>\n    <tr>\n      <th id=\"T_1a2b3_level0_row0\" class=\"row_heading level0 row0\" >0</th>\n"
        "      <td id=\"T_1a2b3_row0_col0\" class=\"data row0 col0\" >1</td>\n"
        "      <td id=\"T_1a2b3_row0_col1\" class=\"data row0 col1\" >x &lt; y<br>z</td>\n    </tr>\n"
        "  </tbody>\n</table>\n";
    CHECK(text(html) ==
          "Totals\n"
          "\n"
          "| | a | b |\n"
          "| --- | --- | --- |\n"
          "| 0 | 1 | x < y z |");
  }
  SUBCASE("MultiIndex columns and rows: header rows merged per column, spans repeated") {
    const std::string html =
        "<table border=\"1\" class=\"dataframe\"><thead>"
        "<tr><th></th><th></th><th colspan=\"2\" halign=\"left\">A</th><th>B</th></tr>"
        "<tr><th></th><th></th><th>x</th><th>y</th><th>x</th></tr>"
        "<tr><th>k1</th><th>k2</th><th></th><th></th><th></th></tr></thead><tbody>"
        "<tr><th rowspan=\"2\" valign=\"top\">a</th><th>1</th><td>1</td><td>2</td><td>5</td></tr>"
        "<tr><th>2</th><td>3</td><td>4</td><td>6</td></tr>"
        "<tr><th>b</th><th>1</th><td>7</td><td>8</td><td>9</td></tr></tbody></table>";
    CHECK(text(html) ==
          "| k1 | k2 | A x | A y | B x |\n"
          "| --- | --- | --- | --- | --- |\n"
          "| a | 1 | 1 | 2 | 5 |\n"
          "| a | 2 | 3 | 4 | 6 |\n"
          "| b | 1 | 7 | 8 | 9 |");
  }
}

TEST_CASE("html_text: tables of other shapes") {
  SUBCASE("no <thead>: a first row of <th> is the header") {
    CHECK(text("<table><tr><th>k</th><th>v</th></tr><tr><td>a</td><td>1</td></tr></table>") ==
          "| k | v |\n| --- | --- |\n| a | 1 |");
  }
  SUBCASE("no header cells: an empty header; short rows padded") {
    CHECK(text("<table><tr><td>a</td><td>1</td></tr><tr><td>b</td></tr></table>") ==
          "| | |\n| --- | --- |\n| a | 1 |\n| b | |");
  }
  SUBCASE("a nested table is read as the text of its cell") {
    CHECK(text("<table><tr><th>k</th></tr><tr><td><table><tr><td>p</td><td>q</td></tr></table></td></tr></table>") ==
          "| k |\n| --- |\n| p q |");
  }
  SUBCASE("a table with no cells leaves its text") {
    const ht::Text t = ht::to_text("<table>loose text</table>");
    CHECK(t.tables == 0);
    CHECK(t.text == "loose text");
  }
  SUBCASE("colspan is capped at 1,000 columns, as in HTML") {
    const std::string t = text("<table><tr><td colspan=\"999999\">x</td></tr></table>");
    CHECK(t.starts_with("| | |"));
    CHECK(t.ends_with("| x | x |"));
    std::size_t bars = 0;
    for (char c : t.substr(t.rfind('\n') + 1)) bars += c == '|' ? 1 : 0;
    CHECK(bars == 1001);
  }
  SUBCASE("more than 100,000 cells: the rest is cut, and said so") {
    std::string html = "<table>";
    for (int r = 0; r < 200; ++r) html += "<tr><td colspan=\"1000\">v</td></tr>";
    const std::string t = text(html + "</table>");
    CHECK(lines_in(t) == 2 + 100 + 1);
    CHECK(t.ends_with("\n[The table has more than 100000 cells; the rest are not shown.]"));
  }
}

TEST_CASE("html_text: other markup as plain text") {
  SUBCASE("paragraphs, headings, line breaks, lists, pre, entities") {
    CHECK(text("<h2>Title</h2><p>One   paragraph\nwrapped.</p><p>Two<br>lines</p>"
               "<ul><li>one</li><li>two &amp; <b>three</b><ol><li>first</li><li>second</li></ol></li></ul>"
               "<!-- c --><pre>a\n  b</pre>x &#x263A; &#9731; &nbsp;y") ==
          "## Title\n"
          "\n"
          "One paragraph wrapped.\n"
          "\n"
          "Two\n"
          "lines\n"
          "\n"
          "- one\n"
          "- two & three\n"
          "  1. first\n"
          "  2. second\n"
          "\n"
          "a\n"
          "  b\n"
          "\n"
          "x \u263A \u2603 y");
  }
  SUBCASE("script, style and head are dropped") {
    CHECK(text("<html><head><title>T</title><style>p{}</style></head><body><script>alert(1)</script>"
               "<div>shown</div><svg><text>tick</text></svg></body></html>") == "shown");
  }
  SUBCASE("broken markup is recovered from") {
    CHECK(text("a < b and <unclosed") == "a < b and");
    CHECK(text("<p>open <b>bold <i>both</p> after") == "open bold both\n\nafter");
  }
  SUBCASE("nothing to show") {
    CHECK(text("") == "");
    CHECK(text("  \n ") == "");
    CHECK(text("<style>x{}</style>") == "");
  }
  SUBCASE("nesting as deep as libxml2 reads is walked without recursion") {
    std::string html = "<p>before</p>";
    for (int i = 0; i < 120; ++i) html += "<div><b>";  // 240 levels, html and body around them
    CHECK(text(html + "deep") == "before\n\ndeep");
  }
  SUBCASE("nesting deeper than libxml2 reads: what it read, and why it stopped") {
    std::string html = "<p>before</p>";
    for (int i = 0; i < 100000; ++i) html += "<span>";
    CHECK(text(html + "deep") == "before\n[The rest of this HTML is not shown: libxml2 stopped reading it "
                                 "(Excessive depth in document: 256 use XML_PARSE_HUGE option).]");
  }
  SUBCASE("a charset declared in the HTML is ignored: the text is UTF-8") {
    CHECK(text("<meta charset=\"iso-8859-1\"><p>caf\u00E9</p>") == "caf\u00E9");
  }
}

// libxml2 is loaded and initialised once, whichever thread comes first; its error handlers are
// per thread, so every thread sets its own.
TEST_CASE("html_text: concurrent conversions") {
  const std::string html = "<table><tr><th>k</th></tr><tr><td>v &amp; w</td></tr></table><p>after</p>";
  const std::string want = "| k |\n| --- |\n| v & w |\n\nafter";
  std::vector<int> right(4, 0);
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < right.size(); ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < 200; ++i) right[t] += ht::to_text(html).text == want ? 1 : 0;
    });
  for (auto& th : threads) th.join();
  for (int n : right) CHECK(n == 200);
}
