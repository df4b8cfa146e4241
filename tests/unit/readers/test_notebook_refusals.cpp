// Notebooks refused with a sentence saying why.
#include "notebook_test_util.hpp"
#include "image_fixtures.hpp"

#include <doctest/doctest.h>

#include <string>
#include <variant>
#include <vector>

using namespace mcpread::readers;
using namespace mcpread::test;
using namespace mcpread::test::notebook_util;

TEST_CASE("notebook: refusals") {
  TempDir dir;
  const std::string d = dir.path().string();
  SUBCASE("not JSON") {
    const ReadOutcome o = read_raw(dir, "bad.ipynb", "{\"cells\": [\n  nope]}");
    CHECK(o.is_error);
    CHECK(text_at(o, 0).starts_with(d + kSep + "bad.ipynb is not a valid notebook: it is not valid JSON (parse error at line 2, column "));
    CHECK(text_at(o, 0).ends_with("). Call read with file_type=\"text\" (and offset/limit) to read the raw JSON."));
  }
  SUBCASE("no cells") {
    const ReadOutcome o = read_raw(dir, "empty.ipynb", R"({"nbformat": 4, "nbformat_minor": 2, "metadata": {}})");
    CHECK(o.is_error);
    CHECK(text_at(o, 0) == d + kSep + "empty.ipynb is not a valid notebook: 'cells' is missing. Call read with "
                               "file_type=\"text\" (and offset/limit) to read the raw JSON.");
  }
  SUBCASE("cells not an array") {
    const ReadOutcome o = read_raw(dir, "x.ipynb", R"({"nbformat": 4, "cells": {}})");
    CHECK(text_at(o, 0).starts_with(d + kSep + "x.ipynb is not a valid notebook: 'cells' is not an array."));
  }
  SUBCASE("not an object") {
    const ReadOutcome o = read_raw(dir, "x.ipynb", "[1, 2]");
    CHECK(text_at(o, 0).starts_with(d + kSep + "x.ipynb is not a valid notebook: its top level is not a JSON object."));
  }
  SUBCASE("nbformat 1") {
    const ReadOutcome o = read_raw(dir, "x.ipynb", R"({"nbformat": 1, "cells": []})");
    CHECK(text_at(o, 0) == d + kSep + "x.ipynb is not a valid notebook: nbformat 1 is not supported (only 2, 3 and 4 are)."
                               " Call read with file_type=\"text\" (and offset/limit) to read the raw JSON.");
  }
  SUBCASE("nbformat 2 without worksheets") {
    const ReadOutcome o = read_raw(dir, "x.ipynb", R"({"nbformat": 2, "metadata": {}})");
    CHECK(text_at(o, 0) == d + kSep + "x.ipynb is not a valid notebook: 'worksheets' is missing (nbformat 2)."
                               " Call read with file_type=\"text\" (and offset/limit) to read the raw JSON.");
  }
  SUBCASE("nested too deep") {
    const ReadOutcome o = read_raw(dir, "x.ipynb", std::string(5000, '[') + std::string(5000, ']'));
    CHECK(o.is_error);
    CHECK(text_at(o, 0).starts_with(d + kSep + "x.ipynb is not a valid notebook: its JSON is nested more than 1000 levels deep."));
  }
  SUBCASE("too large") {
    NotebookOptions options;
    options.max_file_bytes = 100;
    const ReadOutcome o = read_raw(dir, "big.ipynb", notebook(json::array({code(std::string(2000, 'a'), 1)})).dump(),
                                   options);
    CHECK(o.is_error);
    const std::string t = text_at(o, 0);
    CHECK(t.starts_with(d + kSep + "big.ipynb is 2."));
    CHECK(t.find(" bytes), over the 100 bytes limit for notebooks, so it was not parsed. Call read with "
                 "file_type=\"text\" (and offset/limit) to read the raw JSON.") != std::string::npos);
  }
  SUBCASE("empty file") {
    const ReadOutcome o = read_raw(dir, "e.ipynb", "");
    CHECK(text_at(o, 0) == d + kSep + "e.ipynb is empty (0 bytes), not a notebook.");
  }
  SUBCASE("cancelled") {
    const CancelToken token = CancelToken::make();
    token.cancel();
    const ReadOutcome o = read_raw(dir, "c.ipynb", notebook(json::array({code("x", 1)})).dump(), {}, token);
    CHECK(o.cancelled);
  }
}
