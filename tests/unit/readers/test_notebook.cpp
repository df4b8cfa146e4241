// Jupyter notebooks through read_notebook: cells and outputs as text, image outputs as image
// blocks right after the text of their cell, paging by cells, and the refusals.
#include "fixtures.hpp"
#include "image_fixtures.hpp"

#include "notebook/notebook_text.hpp"
#include "mcpread/readers/base64.hpp"
#include "mcpread/readers/notebook.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <string>
#include <variant>
#include <vector>

using namespace mcpread::readers;
using namespace mcpread::test;
using json = nlohmann::json;

namespace {

ReadOutcome read_raw(const TempDir& dir, const std::string& name, std::string_view content,
                     const NotebookOptions& options = {}, const CancelToken& cancel = {}) {
  dir.write(name, content);
  Roots roots;
  std::string error;
  REQUIRE(Roots::from_paths({dir.path().string()}, &roots, &error));
  AccessResult r = open_in_roots(roots, name);
  REQUIRE(std::holds_alternative<OpenedFile>(r));
  return read_notebook(std::get<OpenedFile>(r), options, cancel);
}

ReadOutcome read_nb(const TempDir& dir, const json& nb, const NotebookOptions& options = {}) {
  return read_raw(dir, "nb.ipynb", nb.dump(1), options);
}

json notebook(json cells) {
  return {{"nbformat", 4},
          {"nbformat_minor", 5},
          {"metadata",
           {{"kernelspec", {{"display_name", "Python 3"}, {"language", "python"}, {"name", "python3"}}},
            {"language_info", {{"name", "python"}}}}},
          {"cells", std::move(cells)}};
}

json code(json source, json count, json outputs = json::array()) {
  return {{"cell_type", "code"}, {"execution_count", std::move(count)}, {"metadata", json::object()},
          {"source", std::move(source)}, {"outputs", std::move(outputs)}};
}

json markdown(json source) {
  return {{"cell_type", "markdown"}, {"metadata", json::object()}, {"source", std::move(source)}};
}

json display(json data) {
  return {{"output_type", "display_data"}, {"data", std::move(data)}, {"metadata", json::object()}};
}

std::string text_at(const ReadOutcome& o, std::size_t i) {
  REQUIRE(i < o.blocks.size());
  REQUIRE(std::holds_alternative<TextBlock>(o.blocks[i]));
  return std::get<TextBlock>(o.blocks[i]).text;
}

std::string all_text(const ReadOutcome& o) {
  std::string out;
  for (const auto& b : o.blocks)
    if (const auto* t = std::get_if<TextBlock>(&b)) out += t->text;
  return out;
}

std::size_t image_count(const ReadOutcome& o) {
  std::size_t n = 0;
  for (const auto& b : o.blocks) n += std::holds_alternative<ImageBlock>(b) ? 1 : 0;
  return n;
}

const ImageBlock& image_at(const ReadOutcome& o, std::size_t i) {
  REQUIRE(i < o.blocks.size());
  REQUIRE(std::holds_alternative<ImageBlock>(o.blocks[i]));
  return std::get<ImageBlock>(o.blocks[i]);
}

// No text block carries image data: neither the payloads nor the usual base64 signatures.
void check_no_base64(const ReadOutcome& o, const std::vector<std::string>& payloads) {
  const std::string text = all_text(o);
  CHECK(text.find("iVBORw0KGgo") == std::string::npos);  // PNG
  CHECK(text.find("/9j/") == std::string::npos);         // JPEG
  for (const auto& p : payloads) CHECK(text.find(p.substr(0, 40)) == std::string::npos);
}

}  // namespace

TEST_CASE("notebook: cells and every kind of output") {
  TempDir dir;
  const std::string png = encode_picture({64, 48}, ".png");
  const std::string jpeg = encode_picture({80, 60, 3, Pattern::photo}, ".jpg[Q=90]");
  REQUIRE_FALSE(png.empty());
  REQUIRE_FALSE(jpeg.empty());
  const std::string png64 = base64_encode(png);
  const std::string jpeg64 = base64_encode(jpeg);
  // Split across lines, as some writers store base64.
  const std::string jpeg64_lines = jpeg64.substr(0, 50) + "\n" + jpeg64.substr(50);
  const json nb = notebook(json::array({
      markdown(json::array({"# Title\n", "Some *text*."})),
      code("print('hi')\nimport sys; print('oops', file=sys.stderr)", 1,
           json::array({{{"output_type", "stream"}, {"name", "stdout"}, {"text", json::array({"hi\n", "there\n"})}},
                        {{"output_type", "stream"}, {"name", "stderr"}, {"text", "oops\n"}}})),
      code(json::array({"df"}), 2,
           json::array({{{"output_type", "execute_result"},
                         {"execution_count", 2},
                         {"metadata", json::object()},
                         {"data", {{"text/plain", "   a  b\n0  1  2"}, {"text/html", "<table><tr><td>1</td></tr></table>"}}}}})),
      code("md()", 3,
           json::array({{{"output_type", "execute_result"},
                         {"execution_count", 3},
                         {"data", {{"text/markdown", "**bold**"}, {"text/plain", "<IPython.core.display.Markdown object>"}}}}})),
      code("html()", nullptr,
           json::array({display({{"text/html", "<style>td{color:red}</style><table><tr><th>a</th><th>b</th></tr>"
                                               "<tr><td>1 &lt; 2</td><td>&amp;&nbsp;x &quot;q&quot; &#39;s&#39;</td></tr>"
                                               "</table><script>alert(1)</script><p>A   long\n  line</p>"}})})),
      code("data()", 5,
           json::array({{{"output_type", "execute_result"},
                         {"execution_count", 5},
                         {"data", {{"application/json", {{"k", json::array({1, 2})}}}}}}})),
      code("plot()", 6,
           json::array({display({{"image/png", png64}, {"text/plain", "<Figure size 640x480 with 1 Axes>"}}),
                        display({{"image/jpeg", jpeg64_lines}}),
                        {{"output_type", "stream"}, {"name", "stdout"}, {"text", "after\n"}}})),
      code("svg()", 7, json::array({display({{"image/svg+xml", svg_text(600, 400)}})})),
      code("1/0", 8,
           json::array({{{"output_type", "error"},
                         {"ename", "ZeroDivisionError"},
                         {"evalue", "division by zero"},
                         {"traceback",
                          json::array({"\x1b[0;31m---------------------------------------------------------------------------\x1b[0m",
                                       "\x1b[0;31mZeroDivisionError\x1b[0m                         Traceback (most recent call last)",
                                       "Cell \x1b[0;32mIn[8], line 1\x1b[0m\n\x1b[0;32m----> 1\x1b[0m \x1b[38;5;241m1\x1b[39m\x1b[38;5;241m/\x1b[39m\x1b[38;5;241m0\x1b[39m",
                                       "\x1b[0;31mZeroDivisionError\x1b[0m: division by zero"})}}})),
      {{"cell_type", "raw"}, {"metadata", json::object()}, {"source", "raw *text*"}},
      code("w", 9,
           json::array({display({{"application/vnd.jupyter.widget-view+json", {{"model_id", "abc"}}}})})),
      code("", nullptr),
  }));
  const ReadOutcome o = read_nb(dir, nb);
  REQUIRE_FALSE(o.is_error);
  const std::string d = dir.path().string();

  // Text of cells 1-7, then cell 7's two images, then cell 8, its image, then the rest.
  REQUIRE(o.blocks.size() == 6);
  CHECK(text_at(o, 0) ==
        "Notebook " + d + "/nb.ipynb: 12 cells (10 code, 1 markdown, 1 raw), kernel Python 3 (python), nbformat 4.5.\n"
        "\n"
        "── Cell 1 · markdown ──\n"
        "# Title\n"
        "Some *text*.\n"
        "\n"
        "── Cell 2 · code · [1] ──\n"
        "```python\n"
        "print('hi')\n"
        "import sys; print('oops', file=sys.stderr)\n"
        "```\n"
        "Output (stream stdout):\n"
        "hi\n"
        "there\n"
        "Output (stream stderr):\n"
        "oops\n"
        "\n"
        "── Cell 3 · code · [2] ──\n"
        "```python\n"
        "df\n"
        "```\n"
        "Output [2] (execute_result):\n"
        "| |\n"
        "| --- |\n"
        "| 1 |\n"
        "\n"
        "── Cell 4 · code · [3] ──\n"
        "```python\n"
        "md()\n"
        "```\n"
        "Output [3] (execute_result):\n"
        "**bold**\n"
        "\n"
        "── Cell 5 · code · [ ] ──\n"
        "```python\n"
        "html()\n"
        "```\n"
        "Output (display_data):\n"
        "| a | b |\n"
        "| --- | --- |\n"
        "| 1 < 2 | & x \"q\" 's' |\n"
        "\n"
        "A long line\n"
        "\n"
        "── Cell 6 · code · [5] ──\n"
        "```python\n"
        "data()\n"
        "```\n"
        "Output [5] (execute_result):\n"
        "{\n"
        "  \"k\": [\n"
        "    1,\n"
        "    2\n"
        "  ]\n"
        "}\n"
        "\n"
        "── Cell 7 · code · [6] ──\n"
        "```python\n"
        "plot()\n"
        "```\n"
        "Output (display_data):\n"
        "[Image output 1 of cell 7: PNG 64×48 px]\n"
        "Output (display_data):\n"
        "[Image output 2 of cell 7: JPEG 80×60 px]\n"
        "Output (stream stdout):\n"
        "after\n");
  const ImageBlock& first = image_at(o, 1);
  CHECK(first.mime_type == "image/png");
  CHECK(first.base64 == png64);
  const DecodedImage a = decode_image(mcpread::test::base64_decode(first.base64));
  CHECK(a.width == 64);
  CHECK(a.height == 48);
  const ImageBlock& second = image_at(o, 2);
  CHECK(second.mime_type == "image/jpeg");
  const DecodedImage b = decode_image(mcpread::test::base64_decode(second.base64));
  CHECK(b.width == 80);
  CHECK(b.height == 60);

  CHECK(text_at(o, 3) ==
        "── Cell 8 · code · [7] ──\n"
        "```python\n"
        "svg()\n"
        "```\n"
        "Output (display_data):\n"
        "[Image output 1 of cell 8: SVG 600×400 px, sent as PNG 600×400 px]\n");
  const ImageBlock& svg = image_at(o, 4);
  CHECK(svg.mime_type == "image/png");
  const DecodedImage s = decode_image(mcpread::test::base64_decode(svg.base64));
  CHECK(s.width == 600);
  CHECK(s.height == 400);

  CHECK(text_at(o, 5) ==
        "── Cell 9 · code · [8] ──\n"
        "```python\n"
        "1/0\n"
        "```\n"
        "Error: ZeroDivisionError: division by zero\n"
        "---------------------------------------------------------------------------\n"
        "ZeroDivisionError                         Traceback (most recent call last)\n"
        "Cell In[8], line 1\n"
        "----> 1 1/0\n"
        "ZeroDivisionError: division by zero\n"
        "\n"
        "── Cell 10 · raw ──\n"
        "```\n"
        "raw *text*\n"
        "```\n"
        "\n"
        "── Cell 11 · code · [9] ──\n"
        "```python\n"
        "w\n"
        "```\n"
        "Output (display_data): [not shown: application/vnd.jupyter.widget-view+json]\n"
        "\n"
        "── Cell 12 · code · [ ] ──\n"
        "```python\n"
        "```\n"
        "\n"
        "[Cells 1-12 of 12. End of notebook.]");
  check_no_base64(o, {png64, jpeg64, base64_encode(svg_text(600, 400))});
  CHECK(o.meta.at("path") == d + "/nb.ipynb");
  CHECK(o.meta.at("cells") == 12);
  CHECK(o.meta.at("start_cell") == 1);
  CHECK(o.meta.at("end_cell") == 12);
  CHECK_FALSE(o.meta.contains("next_offset"));
  CHECK(o.meta.at("truncated") == false);
  CHECK(o.meta.at("images") == 3);
  CHECK(o.meta.at("language") == "python");
  CHECK(o.meta.at("kernel") == "Python 3");
  CHECK(o.meta.at("size").get<std::uint64_t>() > 0);
}

TEST_CASE("notebook: a markdown cell's attachment is sent, inline data URIs are not shown") {
  TempDir dir;
  const std::string png64 = base64_encode(encode_picture({30, 20}, ".png"));
  json cell = markdown("![x](attachment:x.png) <img src=\"data:image/png;base64," + png64 + "\">");
  cell["attachments"] = {{"x.png", {{"image/png", png64}}}};
  const ReadOutcome o = read_nb(dir, notebook(json::array({cell})));
  REQUIRE_FALSE(o.is_error);
  REQUIRE(o.blocks.size() == 3);
  CHECK(text_at(o, 0).ends_with(
      "── Cell 1 · markdown ──\n"
      "![x](attachment:x.png) <img src=\"data:image/png;base64,[… " + std::to_string(png64.size()) +
      " base64 characters omitted …]\">\n"
      "[Image attachment x.png of cell 1: PNG 30×20 px]\n"));
  CHECK(image_at(o, 1).mime_type == "image/png");
  CHECK(text_at(o, 2) == "[Cells 1-1 of 1. End of notebook.]");
  check_no_base64(o, {png64});
}

TEST_CASE("notebook: nbformat 3") {
  TempDir dir;
  const std::string png64 = base64_encode(encode_picture({40, 30}, ".png"));
  const json nb = {
      {"nbformat", 3},
      {"nbformat_minor", 0},
      {"metadata", {{"name", "old"}}},
      {"worksheets",
       json::array({{{"metadata", json::object()},
                     {"cells",
                      json::array({{{"cell_type", "heading"}, {"level", 2}, {"source", "Intro"}},
                                   {{"cell_type", "code"},
                                    {"language", "python"},
                                    {"input", json::array({"x = 1\n", "x"})},
                                    {"prompt_number", 4},
                                    {"outputs",
                                     json::array({{{"output_type", "stream"}, {"stream", "stdout"}, {"text", "out\n"}},
                                                  {{"output_type", "pyout"}, {"prompt_number", 4}, {"text", "1"}},
                                                  {{"output_type", "display_data"}, {"png", png64}},
                                                  {{"output_type", "pyerr"},
                                                   {"ename", "E"},
                                                   {"evalue", "v"},
                                                   {"traceback", json::array({"tb"})}}})}}})}}})}};
  const ReadOutcome o = read_nb(dir, nb);
  REQUIRE_FALSE(o.is_error);
  REQUIRE(o.blocks.size() == 3);
  CHECK(text_at(o, 0) ==
        "Notebook " + dir.path().string() + "/nb.ipynb: 2 cells (1 code, 1 markdown, 0 raw), language python, nbformat 3.0.\n"
        "\n"
        "── Cell 1 · markdown ──\n"
        "## Intro\n"
        "\n"
        "── Cell 2 · code · [4] ──\n"
        "```python\n"
        "x = 1\n"
        "x\n"
        "```\n"
        "Output (stream stdout):\n"
        "out\n"
        "Output [4] (execute_result):\n"
        "1\n"
        "Output (display_data):\n"
        "[Image output 1 of cell 2: PNG 40×30 px]\n"
        "Error: E: v\n"
        "tb\n");
  CHECK(decode_image(mcpread::test::base64_decode(image_at(o, 1).base64)).width == 40);
  CHECK(text_at(o, 2) == "[Cells 1-2 of 2. End of notebook.]");
}

// nbformat 2 as IPython 0.12 wrote it (the SymPy examples): nbformat's v2 -> v3 step changes
// nothing but the version, so it is read as 3 is, every worksheet in turn.
TEST_CASE("notebook: nbformat 2") {
  TempDir dir;
  const json nb = {
      {"metadata", {{"name", "limits"}}},
      {"name", "limits"},
      {"nbformat", 2},
      {"worksheets",
       json::array({{{"cells",
                      json::array({{{"cell_type", "code"},
                                    {"collapsed", false},
                                    {"input", "limit(sin(x)/x, x, 0)"},
                                    {"language", "python"},
                                    {"outputs", json::array({{{"output_type", "pyout"}, {"prompt_number", 3}, {"text", "1"}}})},
                                    {"prompt_number", 3}},
                                   {{"cell_type", "markdown"}, {"source", "Eqn *8.1*"}}})}},
                    {{"cells",
                      json::array({{{"cell_type", "code"},
                                    {"input", "print 1; 1/0"},
                                    {"language", "python"},
                                    {"outputs",
                                     json::array({{{"output_type", "stream"}, {"text", "1\n"}},
                                                  {{"output_type", "display_data"},
                                                   {"html", "<table><tr><th>k</th></tr><tr><td>v</td></tr></table>"},
                                                   {"text", "<IPython.core.display.HTML at 0x10a2b3c4d>"}},
                                                  {{"output_type", "pyerr"},
                                                   {"etype", "ZeroDivisionError"},
                                                   {"evalue", "integer division or modulo by zero"},
                                                   {"traceback", json::array({"Traceback (most recent call last)"})}}})},
                                    {"prompt_number", 4}}})}}})}};
  const ReadOutcome o = read_nb(dir, nb);
  REQUIRE_FALSE(o.is_error);
  REQUIRE(o.blocks.size() == 1);
  CHECK(text_at(o, 0) ==
        "Notebook " + dir.path().string() + "/nb.ipynb: 3 cells (2 code, 1 markdown, 0 raw), language python, nbformat 2.0.\n"
        "\n"
        "── Cell 1 · code · [3] ──\n"
        "```python\n"
        "limit(sin(x)/x, x, 0)\n"
        "```\n"
        "Output [3] (execute_result):\n"
        "1\n"
        "\n"
        "── Cell 2 · markdown ──\n"
        "Eqn *8.1*\n"
        "\n"
        "── Cell 3 · code · [4] ──\n"
        "```python\n"
        "print 1; 1/0\n"
        "```\n"
        "Output (stream stdout):\n"
        "1\n"
        "Output (display_data):\n"
        "| k |\n"
        "| --- |\n"
        "| v |\n"
        "Error: ZeroDivisionError: integer division or modulo by zero\n"
        "Traceback (most recent call last)\n"
        "\n"
        "[Cells 1-3 of 3. End of notebook.]");
  CHECK(o.meta.at("nbformat") == "2.0");
  CHECK(o.meta.at("cells") == 3);
}

// Which form of a bundle is shown when it has HTML: a table wins over a DataFrame's fixed-width
// text; a repr that only names an object never stands alone when another form exists.
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

TEST_CASE("notebook: a huge output is trimmed in the middle") {
  TempDir dir;
  std::string big(1'000'000, 'x');
  big.replace(0, 5, "START");
  big.replace(big.size() - 3, 3, "END");
  const json nb = notebook(json::array({code("spam()", 1,
                                             json::array({{{"output_type", "stream"}, {"name", "stdout"}, {"text", big}}}))}));
  NotebookOptions options;
  const ReadOutcome o = read_nb(dir, nb, options);
  REQUIRE_FALSE(o.is_error);
  const std::string t = text_at(o, 0);
  const std::string expected = "Output (stream stdout):\nSTART" + std::string(3995, 'x') + "\n" +
                               "[… 992000 characters of this output omitted …]\n" + std::string(3997, 'x') +
                               "END\n\n[Cells 1-1 of 1. End of notebook.]";
  CHECK(t.ends_with(expected));
  CHECK(t.size() < 9000);
  CHECK(o.meta.at("outputs_trimmed") == 1);
  CHECK(o.meta.at("truncated") == false);
}

TEST_CASE("notebook: cell ranges and the output cap") {
  TempDir dir;
  json cells = json::array();
  for (int i = 1; i <= 50; ++i)
    cells.push_back(code("value_" + std::to_string(i) + " = " + std::string(200, 'v'), i));
  const json nb = notebook(cells);
  const std::string d = dir.path().string();

  SUBCASE("offset and limit") {
    NotebookOptions options;
    options.offset = 3;
    options.limit = 4;
    const ReadOutcome o = read_nb(dir, nb, options);
    REQUIRE_FALSE(o.is_error);
    const std::string t = text_at(o, 0);
    CHECK(t.find("── Cell 2 ·") == std::string::npos);
    CHECK(t.find("── Cell 3 · code · [3] ──\n```python\nvalue_3 = ") != std::string::npos);
    CHECK(t.find("── Cell 7 ·") == std::string::npos);
    CHECK(t.ends_with("\n\n[Cells 3-6 of 50. To read more, call read again with offset=7.]"));
    CHECK(o.meta.at("start_cell") == 3);
    CHECK(o.meta.at("end_cell") == 6);
    CHECK(o.meta.at("next_offset") == 7);
    CHECK(o.meta.at("truncated") == false);
  }
  SUBCASE("the last cells") {
    NotebookOptions options;
    options.offset = 48;
    const ReadOutcome o = read_nb(dir, nb, options);
    CHECK(text_at(o, 0).ends_with("[Cells 48-50 of 50. End of notebook.]"));
    CHECK_FALSE(o.meta.contains("next_offset"));
  }
  SUBCASE("the cap stops at a cell boundary; the next read continues there") {
    NotebookOptions options;
    options.max_output_bytes = 2000;
    const ReadOutcome o = read_nb(dir, nb, options);
    REQUIRE_FALSE(o.is_error);
    const std::string t = text_at(o, 0);
    CHECK(t.size() <= 2000);
    const auto end = o.meta.at("end_cell").get<std::uint64_t>();
    CHECK(end >= 2);
    CHECK(end < 50);
    const std::string e = std::to_string(end);
    CHECK(t.ends_with("```\n\n[Cells 1-" + e + " of 50 shown. To read more, call read again with offset=" +
                      std::to_string(end + 1) + ".]"));
    CHECK(t.find("── Cell " + e + " ·") != std::string::npos);
    CHECK(t.find("── Cell " + std::to_string(end + 1) + " ·") == std::string::npos);
    CHECK(o.meta.at("truncated") == true);
    CHECK(o.meta.at("next_offset") == end + 1);

    options.offset = end + 1;
    const ReadOutcome next = read_nb(dir, nb, options);
    CHECK(text_at(next, 0).find("\n\n── Cell " + std::to_string(end + 1) + " · code") != std::string::npos);
    CHECK(next.meta.at("start_cell") == end + 1);
  }
  SUBCASE("one cell larger than the cap is cut, never dropped") {
    const json one = notebook(json::array({code("a = 1\n" + std::string(20000, 'z') + "\nb = 2", 1), code("c", 2)}));
    NotebookOptions options;
    options.max_output_bytes = 3000;
    const ReadOutcome o = read_nb(dir, one, options);
    REQUIRE_FALSE(o.is_error);
    const std::string t = text_at(o, 0);
    CHECK(t.size() <= 3000);
    CHECK(t.find("── Cell 1 · code · [1] ──\n```python\na = 1\n") != std::string::npos);
    CHECK(t.find(" characters of cell 1 omitted to fit the output cap of 3000 bytes; read the raw JSON with "
                 "file_type=\"text\" to see them …]\n") != std::string::npos);
    CHECK(t.ends_with("\nb = 2\n```\n\n[Cells 1-1 of 2 shown. To read more, call read again with offset=2.]"));
    CHECK(o.meta.at("truncated") == true);
  }
  SUBCASE("offset past the end") {
    NotebookOptions options;
    options.offset = 51;
    const ReadOutcome o = read_nb(dir, nb, options);
    CHECK(o.is_error);
    CHECK(text_at(o, 0) == "Offset 51 is past the end of " + d +
                               "/nb.ipynb: the notebook has 50 cells. Use an offset from 1 to 50.");
  }
}

TEST_CASE("notebook: more image outputs than max_images") {
  TempDir dir;
  const std::string png64 = base64_encode(encode_picture({16, 16}, ".png"));
  const json img = display({{"image/png", png64}, {"text/plain", "<Figure>"}});
  const json nb = notebook(json::array({code("a", 1, json::array({img, img})), code("b", 2, json::array({img, img}))}));
  NotebookOptions options;
  options.max_images = 3;
  const ReadOutcome o = read_nb(dir, nb, options);
  REQUIRE_FALSE(o.is_error);
  CHECK(image_count(o) == 3);
  REQUIRE(o.blocks.size() == 6);  // text, 2 images, text, 1 image, footer
  CHECK(text_at(o, 3) ==
        "── Cell 2 · code · [2] ──\n```python\nb\n```\n"
        "Output (display_data):\n[Image output 1 of cell 2: PNG 16×16 px]\n"
        "Output (display_data):\n"
        "[Image output 2 of cell 2: image/png, not sent: the limit of 3 images per answer was reached]\n"
        "<Figure>\n");
  CHECK(std::holds_alternative<ImageBlock>(o.blocks[4]));
  CHECK(text_at(o, 5) ==
        "[Cells 1-2 of 2. End of notebook.]\n"
        "[1 image output was not sent: at most 3 images per answer. To see it, call read again with offset=2.]");
  CHECK(o.meta.at("images") == 3);
  CHECK(o.meta.at("images_not_sent") == 1);
  check_no_base64(o, {png64});
}

TEST_CASE("notebook: refusals") {
  TempDir dir;
  const std::string d = dir.path().string();
  SUBCASE("not JSON") {
    const ReadOutcome o = read_raw(dir, "bad.ipynb", "{\"cells\": [\n  nope]}");
    CHECK(o.is_error);
    CHECK(text_at(o, 0).starts_with(d + "/bad.ipynb is not a valid notebook: it is not valid JSON (parse error at line 2, column "));
    CHECK(text_at(o, 0).ends_with("). Call read with file_type=\"text\" (and offset/limit) to read the raw JSON."));
  }
  SUBCASE("no cells") {
    const ReadOutcome o = read_raw(dir, "empty.ipynb", R"({"nbformat": 4, "nbformat_minor": 2, "metadata": {}})");
    CHECK(o.is_error);
    CHECK(text_at(o, 0) == d + "/empty.ipynb is not a valid notebook: 'cells' is missing. Call read with "
                               "file_type=\"text\" (and offset/limit) to read the raw JSON.");
  }
  SUBCASE("cells not an array") {
    const ReadOutcome o = read_raw(dir, "x.ipynb", R"({"nbformat": 4, "cells": {}})");
    CHECK(text_at(o, 0).starts_with(d + "/x.ipynb is not a valid notebook: 'cells' is not an array."));
  }
  SUBCASE("not an object") {
    const ReadOutcome o = read_raw(dir, "x.ipynb", "[1, 2]");
    CHECK(text_at(o, 0).starts_with(d + "/x.ipynb is not a valid notebook: its top level is not a JSON object."));
  }
  SUBCASE("nbformat 1") {
    const ReadOutcome o = read_raw(dir, "x.ipynb", R"({"nbformat": 1, "cells": []})");
    CHECK(text_at(o, 0) == d + "/x.ipynb is not a valid notebook: nbformat 1 is not supported (only 2, 3 and 4 are)."
                               " Call read with file_type=\"text\" (and offset/limit) to read the raw JSON.");
  }
  SUBCASE("nbformat 2 without worksheets") {
    const ReadOutcome o = read_raw(dir, "x.ipynb", R"({"nbformat": 2, "metadata": {}})");
    CHECK(text_at(o, 0) == d + "/x.ipynb is not a valid notebook: 'worksheets' is missing (nbformat 2)."
                               " Call read with file_type=\"text\" (and offset/limit) to read the raw JSON.");
  }
  SUBCASE("nested too deep") {
    const ReadOutcome o = read_raw(dir, "x.ipynb", std::string(5000, '[') + std::string(5000, ']'));
    CHECK(o.is_error);
    CHECK(text_at(o, 0).starts_with(d + "/x.ipynb is not a valid notebook: its JSON is nested more than 1000 levels deep."));
  }
  SUBCASE("too large") {
    NotebookOptions options;
    options.max_file_bytes = 100;
    const ReadOutcome o = read_raw(dir, "big.ipynb", notebook(json::array({code(std::string(2000, 'a'), 1)})).dump(),
                                   options);
    CHECK(o.is_error);
    const std::string t = text_at(o, 0);
    CHECK(t.starts_with(d + "/big.ipynb is 2."));
    CHECK(t.find(" bytes), over the 100 bytes limit for notebooks, so it was not parsed. Call read with "
                 "file_type=\"text\" (and offset/limit) to read the raw JSON.") != std::string::npos);
  }
  SUBCASE("empty file") {
    const ReadOutcome o = read_raw(dir, "e.ipynb", "");
    CHECK(text_at(o, 0) == d + "/e.ipynb is empty (0 bytes), not a notebook.");
  }
  SUBCASE("cancelled") {
    const CancelToken token = CancelToken::make();
    token.cancel();
    const ReadOutcome o = read_raw(dir, "c.ipynb", notebook(json::array({code("x", 1)})).dump(), {}, token);
    CHECK(o.cancelled);
  }
}

TEST_CASE("notebook: odd but readable notebooks") {
  TempDir dir;
  SUBCASE("no cells at all") {
    const ReadOutcome o = read_nb(dir, notebook(json::array()));
    REQUIRE_FALSE(o.is_error);
    CHECK(text_at(o, 0).ends_with("/nb.ipynb: 0 cells (0 code, 0 markdown, 0 raw), kernel Python 3 (python), "
                                  "nbformat 4.5.\n\n[The notebook has no cells.]"));
  }
  SUBCASE("invalid UTF-8 and a source holding backtick fences") {
    const std::string raw = "{\"nbformat\": 4, \"nbformat_minor\": 0, \"metadata\": {}, \"cells\": ["
                            "{\"cell_type\": \"code\", \"execution_count\": null, \"outputs\": [], "
                            "\"source\": \"s = '\xff'\\n```\\nx\"}]}";
    const ReadOutcome o = read_raw(dir, "u.ipynb", raw);
    REQUIRE_FALSE(o.is_error);
    CHECK(text_at(o, 0).ends_with(": 1 cell (1 code, 0 markdown, 0 raw), nbformat 4.0.\n\n"
                                  "── Cell 1 · code · [ ] ──\n````\ns = '\xEF\xBF\xBD'\n```\nx\n````\n\n"
                                  "[Cells 1-1 of 1. End of notebook.]\n"
                                  "[Invalid UTF-8 bytes in the notebook are shown as U+FFFD.]"));
  }
  SUBCASE("traceback entries that end in a newline, an output with no data") {
    const json nb = notebook(json::array({code("f()", 2, json::array({
        {{"output_type", "error"}, {"ename", "E"}, {"evalue", ""},
         {"traceback", json::array({"Traceback (most recent call last):\n", "  File \"x\", line 1\n", "E\n"})}},
        display(json::object())}))}));
    const ReadOutcome o = read_nb(dir, nb);
    CHECK(text_at(o, 0).find("```\nError: E\nTraceback (most recent call last):\n  File \"x\", line 1\nE\n"
                             "Output (display_data): [not shown: no data]\n\n[Cells") != std::string::npos);
  }
  SUBCASE("offset past the end of an empty notebook") {
    NotebookOptions options;
    options.offset = 2;
    const ReadOutcome o = read_nb(dir, notebook(json::array()), options);
    CHECK(o.is_error);
    CHECK(text_at(o, 0).ends_with("/nb.ipynb: the notebook has no cells."));
  }
  SUBCASE("nbformat 3 without worksheets") {
    const ReadOutcome o = read_raw(dir, "x.ipynb", R"({"nbformat": 3, "metadata": {}})");
    CHECK(o.is_error);
    CHECK(text_at(o, 0).find("is not a valid notebook: 'worksheets' is missing (nbformat 3).") != std::string::npos);
  }
  SUBCASE("a broken image output is named, its text shown") {
    const json nb = notebook(json::array({code("x", 1, json::array({display({{"image/png", "not base64!"}, {"text/plain", "fig"}})}))}));
    const ReadOutcome o = read_nb(dir, nb);
    CHECK(image_count(o) == 0);
    CHECK(text_at(o, 0).find("Output (display_data):\n[Image output 1 of cell 1: image/png, not sent: its base64 "
                             "data is not valid]\nfig\n") != std::string::npos);
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
