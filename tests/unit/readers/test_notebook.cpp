// Jupyter notebooks through read_notebook: cells and outputs as text, image outputs as image
// blocks right after the text of their cell, attachments.
#include "notebook_test_util.hpp"
#include "image_fixtures.hpp"

#include "mcpread/readers/base64.hpp"

#include <doctest/doctest.h>

#include <string>
#include <variant>
#include <vector>

using namespace mcpread::readers;
using namespace mcpread::test;
using namespace mcpread::test::notebook_util;

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
        "Notebook " + d + kSep + "nb.ipynb: 12 cells (10 code, 1 markdown, 1 raw), kernel Python 3 (python), nbformat 4.5.\n"
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
  CHECK(mcpread::readers::view_of(first.data) == png);  // the notebook's PNG, unchanged
  const DecodedImage a = decode_image(std::string(mcpread::readers::view_of(first.data)));
  CHECK(a.width == 64);
  CHECK(a.height == 48);
  const ImageBlock& second = image_at(o, 2);
  CHECK(second.mime_type == "image/jpeg");
  const DecodedImage b = decode_image(std::string(mcpread::readers::view_of(second.data)));
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
  const DecodedImage s = decode_image(std::string(mcpread::readers::view_of(svg.data)));
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
  CHECK(o.meta.at("path") == d + kSep + "nb.ipynb");
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
