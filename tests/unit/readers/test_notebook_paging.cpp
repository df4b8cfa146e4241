// Notebook answers within their limits: a huge output trimmed in the middle, cell ranges and the
// output cap, more image outputs than an answer sends.
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
    CHECK(text_at(o, 0) == "Offset 51 is past the end of " + d + kSep +
                               "nb.ipynb: the notebook has 50 cells. Use an offset from 1 to 50.");
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
