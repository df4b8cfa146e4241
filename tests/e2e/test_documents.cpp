// PDFs and notebooks through the binary: the blocks a client receives, progress notifications,
// and schema validity on every version.
#include "fixtures.hpp"
#include "mcp_client.hpp"
#include "pdf_fixtures.hpp"

#include <doctest/doctest.h>

#include <string>

using namespace mcpread::test;
using nlohmann::json;

TEST_CASE("PDFs through the binary") {
  TempDir root;
  root.write("report.pdf", text_pdf(3, "Quarterly report"));
  for (const char* version : {"2024-11-05", "2025-06-18", "2025-11-25"}) {
    CAPTURE(version);
    McpClient client({{root.path().string()}});
    client.initialize(version);
    const json r = client.call("read", {{"file_path", "report.pdf"}, {"pages", "2-3"}});
    CHECK_FALSE(r.contains("isError"));
    REQUIRE(r["content"].size() == 2);
    const std::string text = r["content"][0]["text"];
    CHECK(text.rfind("PDF " + (root.path() / "report.pdf").string() + ": \"Quarterly report\", 3 pages", 0) == 0);
    CHECK(text.find("\u2500\u2500 Page 2 of 3 \u2500\u2500") != std::string::npos);
    CHECK(text.find("\u2500\u2500 Page 1 of 3") == std::string::npos);
    CHECK(r["content"][1]["type"] == "resource");
    CHECK(r["content"][1]["resource"]["mimeType"] == "application/pdf");
    CHECK(r["content"][1]["resource"]["uri"] == file_uri(root.path() / "report.pdf"));
    CHECK(r["_meta"]["selected"] == json::array({2, 3}));
  }
}

TEST_CASE("PDF pages rendered as images, with progress notifications") {
  TempDir root;
  root.write("slides.pdf", text_pdf(2));
  McpClient client({{root.path().string()}});
  client.initialize("2025-11-25");
  const json response = client.request(
      "tools/call", {{"name", "read"},
                     {"arguments", {{"file_path", "slides.pdf"}, {"file_type", "image"}}},
                     {"_meta", {{"progressToken", "p-1"}}}});
  const json& r = response["result"];
  int images = 0;
  for (const auto& block : r["content"]) images += block["type"] == "image" ? 1 : 0;
  CHECK(images == 2);
  int progress = 0;
  for (const auto& m : client.others()) {
    if (m.value("method", "") != "notifications/progress") continue;
    CHECK(m["params"]["progressToken"] == "p-1");
    CHECK(m["params"]["total"] == 2);
    ++progress;
  }
  CHECK(progress == 2);
}

TEST_CASE("notebooks through the binary") {
  TempDir root;
  root.write("analysis.ipynb", R"NB({
    "cells": [
      {"cell_type": "markdown", "metadata": {}, "source": ["# Analysis"]},
      {"cell_type": "code", "execution_count": 1, "metadata": {}, "source": "print('hi')",
       "outputs": [{"output_type": "stream", "name": "stdout", "text": ["hi\n"]}]}
    ],
    "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}},
    "nbformat": 4, "nbformat_minor": 5})NB");
  McpClient client({{root.path().string()}});
  client.initialize("2025-11-25");
  const json r = client.call("read", {{"file_path", "analysis.ipynb"}});
  CHECK_FALSE(r.contains("isError"));
  const std::string text = r["content"][0]["text"];
  CHECK(text.rfind("Notebook " + (root.path() / "analysis.ipynb").string() +
                       ": 2 cells (1 code, 1 markdown, 0 raw), kernel Python 3 (python), nbformat 4.5.",
                   0) == 0);
  CHECK(text.find("```python\nprint('hi')\n```") != std::string::npos);
  CHECK(text.find("Output (stream stdout):\nhi") != std::string::npos);
  const json second = client.call("read", {{"file_path", "analysis.ipynb"}, {"offset", 2}});
  CHECK(second["content"][0]["text"].get<std::string>().find("Cell 1 ") == std::string::npos);
  const json raw = client.call("read", {{"file_path", "analysis.ipynb"}, {"file_type", "text"}});
  CHECK(raw["content"][0]["text"].get<std::string>().rfind("     1\t{", 0) == 0);
}

// An nbformat 2 notebook (as IPython 0.12 wrote them) whose output is a pandas Styler: the
// server's libxml2, loaded on first use, turns its HTML into a Markdown table.
TEST_CASE("an nbformat 2 notebook with an HTML table through the binary") {
  TempDir root;
  root.write("old.ipynb", R"NB({"metadata": {"name": "old"}, "nbformat": 2, "worksheets": [{"cells": [
      {"cell_type": "code", "collapsed": false, "input": "df.style", "language": "python", "prompt_number": 7,
       "outputs": [{"output_type": "pyout", "prompt_number": 7,
                    "html": "<style type=\"text/css\"></style><table id=\"T_1\"><thead><tr><th class=\"blank\">&nbsp;</th><th>a</th></tr></thead><tbody><tr><th>0</th><td>1</td></tr></tbody></table>",
                    "text": "<pandas.io.formats.style.Styler at 0x7f0e2c3b4d50>"}]}]}]})NB");
  McpClient client({{root.path().string()}});
  client.initialize("2025-11-25");
  const json r = client.call("read", {{"file_path", "old.ipynb"}});
  CHECK_FALSE(r.contains("isError"));
  CHECK(r["content"][0]["text"] == "Notebook " + (root.path() / "old.ipynb").string() +
                                       ": 1 cell (1 code, 0 markdown, 0 raw), language python, nbformat 2.0.\n"
                                       "\n"
                                       "── Cell 1 · code · [7] ──\n"
                                       "```python\n"
                                       "df.style\n"
                                       "```\n"
                                       "Output [7] (execute_result):\n"
                                       "| | a |\n"
                                       "| --- | --- |\n"
                                       "| 0 | 1 |\n"
                                       "\n"
                                       "[Cells 1-1 of 1. End of notebook.]");
}
