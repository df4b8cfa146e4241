// Older notebook formats (nbformat 3 and 2) and odd but readable notebooks.
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
        "Notebook " + dir.path().string() + kSep + "nb.ipynb: 2 cells (1 code, 1 markdown, 0 raw), language python, nbformat 3.0.\n"
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
  CHECK(decode_image(std::string(mcpread::readers::view_of(image_at(o, 1).data))).width == 40);
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
        "Notebook " + dir.path().string() + kSep + "nb.ipynb: 3 cells (2 code, 1 markdown, 0 raw), language python, nbformat 2.0.\n"
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

TEST_CASE("notebook: odd but readable notebooks") {
  TempDir dir;
  SUBCASE("no cells at all") {
    const ReadOutcome o = read_nb(dir, notebook(json::array()));
    REQUIRE_FALSE(o.is_error);
    CHECK(text_at(o, 0).ends_with(kSep + "nb.ipynb: 0 cells (0 code, 0 markdown, 0 raw), kernel Python 3 (python), "
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
    CHECK(text_at(o, 0).ends_with(kSep + "nb.ipynb: the notebook has no cells."));
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
