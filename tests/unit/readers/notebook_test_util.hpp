#pragma once
// Helpers shared by the notebook reader's tests: notebooks built as JSON, read with
// read_notebook, and the answer's blocks.
#include "fixtures.hpp"
#include "tool_wording.hpp"

#include "mcpread/readers/notebook.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <string>
#include <variant>
#include <vector>

namespace mcpread::test::notebook_util {

using namespace mcpread::readers;
using json = nlohmann::json;

inline ReadOutcome read_raw(const TempDir& dir, const std::string& name, std::string_view content,
                     const NotebookOptions& options = {}, const CancelToken& cancel = {}) {
  dir.write(name, content);
  Roots roots;
  std::string error;
  REQUIRE(Roots::from_paths({dir.path().string()}, &roots, &error));
  AccessResult r = open_in_roots(roots, name);
  REQUIRE(std::holds_alternative<OpenedFile>(r));
  return read_notebook(std::get<OpenedFile>(r), tool_worded(options), cancel);  // the server's wording
}

inline ReadOutcome read_nb(const TempDir& dir, const json& nb, const NotebookOptions& options = {}) {
  return read_raw(dir, "nb.ipynb", nb.dump(1), options);
}

inline json notebook(json cells) {
  return {{"nbformat", 4},
          {"nbformat_minor", 5},
          {"metadata",
           {{"kernelspec", {{"display_name", "Python 3"}, {"language", "python"}, {"name", "python3"}}},
            {"language_info", {{"name", "python"}}}}},
          {"cells", std::move(cells)}};
}

inline json code(json source, json count, json outputs = json::array()) {
  return {{"cell_type", "code"}, {"execution_count", std::move(count)}, {"metadata", json::object()},
          {"source", std::move(source)}, {"outputs", std::move(outputs)}};
}

inline json markdown(json source) {
  return {{"cell_type", "markdown"}, {"metadata", json::object()}, {"source", std::move(source)}};
}

inline json display(json data) {
  return {{"output_type", "display_data"}, {"data", std::move(data)}, {"metadata", json::object()}};
}

inline std::string text_at(const ReadOutcome& o, std::size_t i) {
  REQUIRE(i < o.blocks.size());
  REQUIRE(std::holds_alternative<TextBlock>(o.blocks[i]));
  return std::get<TextBlock>(o.blocks[i]).text;
}

inline std::string all_text(const ReadOutcome& o) {
  std::string out;
  for (const auto& b : o.blocks)
    if (const auto* t = std::get_if<TextBlock>(&b)) out += t->text;
  return out;
}

inline std::size_t image_count(const ReadOutcome& o) {
  std::size_t n = 0;
  for (const auto& b : o.blocks) n += std::holds_alternative<ImageBlock>(b) ? 1 : 0;
  return n;
}

inline const ImageBlock& image_at(const ReadOutcome& o, std::size_t i) {
  REQUIRE(i < o.blocks.size());
  REQUIRE(std::holds_alternative<ImageBlock>(o.blocks[i]));
  return std::get<ImageBlock>(o.blocks[i]);
}

// No text block carries image data: neither the payloads nor the usual base64 signatures.
inline void check_no_base64(const ReadOutcome& o, const std::vector<std::string>& payloads) {
  const std::string text = all_text(o);
  CHECK(text.find("iVBORw0KGgo") == std::string::npos);  // PNG
  CHECK(text.find("/9j/") == std::string::npos);         // JPEG
  for (const auto& p : payloads) CHECK(text.find(p.substr(0, 40)) == std::string::npos);
}


}  // namespace mcpread::test::notebook_util
