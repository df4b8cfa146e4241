// HTML outputs of notebook cells as text, and the notebook text helpers.
#include "notebook_test_util.hpp"
#include "notebook/notebook_text.hpp"
#include "mcpread/readers/base64.hpp"

#include <doctest/doctest.h>

#include <string>
#include <variant>
#include <vector>

using namespace mcpread::readers;
using namespace mcpread::test;
using namespace mcpread::test::notebook_util;

TEST_CASE("notebook: HTML outputs") {
  TempDir dir;
  const std::string styler_html =
      "<style type=\"text/css\">\n</style>\n<table id=\"T_9f\">\n  <thead>\n    <tr>\n"
      "      <th class=\"blank level0\" >&nbsp;</th>\n      <th class=\"col_heading level0 col0\" >n</th>\n"
      "    </tr>\n  </thead>\n  <tbody>\n    <tr>\n      <th class=\"row_heading level0 row0\" >0</th>\n"
      "      <td class=\"data row0 col0\" >42</td>\n    </tr>\n  </tbody>\n</table>\n";
  const auto shown = [&](const json& data) {
    const ReadOutcome o = read_nb(dir, notebook(json::array({code("x", 1, json::array({display(data)}))})));
    REQUIRE_FALSE(o.is_error);
    const std::string t = text_at(o, 0);
    const std::string head = "Output (display_data):";
    const auto at = t.find(head);
    REQUIRE(at != std::string::npos);
    return t.substr(at + head.size(), t.find("\n\n[Cells") - at - head.size());
  };
  SUBCASE("a Styler: its table, never its repr") {
    CHECK(shown({{"text/html", styler_html}, {"text/plain", "<pandas.io.formats.style.Styler at 0x7f3a1c2b9d50>"}}) ==
          "\n| | n |\n| --- | --- |\n| 0 | 42 |");
  }
  SUBCASE("a DataFrame: the Markdown table rather than the fixed-width text") {
    CHECK(shown({{"text/html", styler_html}, {"text/plain", "    n\n0  42"}}) == "\n| | n |\n| --- | --- |\n| 0 | 42 |");
  }
  SUBCASE("HTML without a table after a repr naming an object") {
    CHECK(shown({{"text/html", "<b>Done</b> in <i>3 s</i>"}, {"text/plain", "<IPython.core.display.HTML object>"}}) ==
          "\nDone in 3 s");
  }
  SUBCASE("HTML without a table next to real plain text: the plain text") {
    CHECK(shown({{"text/html", "<b>x</b> = 1"}, {"text/plain", "x = 1"}}) == "\nx = 1");
  }
  SUBCASE("LaTeX rather than a bare repr when there is no HTML") {
    CHECK(shown({{"text/latex", "$x^2$"}, {"text/plain", "<sympy.core.power.Pow at 0xdeadbeef>"}}) == "\n$x^2$");
  }
  SUBCASE("a bare repr alone is still shown") {
    CHECK(shown({{"text/plain", "<object at 0x1234>"}}) == "\n<object at 0x1234>");
  }
  SUBCASE("HTML that shows nothing: the plain text, even a bare repr") {
    CHECK(shown({{"text/html", "<script>render()</script>"}, {"text/plain", "<Widget at 0xabc>"}}) == "\n<Widget at 0xabc>");
  }
}

TEST_CASE("notebook text helpers") {
  namespace nt = mcpread::readers::notebook_text;
  CHECK(nt::clean_terminal("a\x1b[1;31mred\x1b[0m\r\nprog 10%\rprog 100%\nx\x1b]0;title\x07y\x1b(Bz") ==
        "ared\nprog 100%\nxyz");
  CHECK(nt::clean_terminal("done\r\n") == "done\n");
  CHECK(mcpread::readers::base64_decode("aGVs\nbG8=") == std::optional<std::string>("hello"));
  CHECK_FALSE(mcpread::readers::base64_decode("a*b").has_value());
  CHECK(nt::scrub_data_uris("data:text/plain;base64,aGk=") == "data:text/plain;base64,aGk=");
  bool trimmed = false;
  CHECK(nt::trim_output("short", 10, &trimmed) == "short");
  CHECK_FALSE(trimmed);
  CHECK(nt::trim_output("l1\nl2\nl3\nl4\nl5\nl6\n", 8, &trimmed) == "l1\n[… 12 characters of this output omitted …]\nl6\n");
  CHECK(trimmed);
  CHECK(nt::fence_for("a ```` b") == "`````");
}
