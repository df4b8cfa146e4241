#pragma once
// The notebook reader's cell renderer: one cell (source, outputs, attachments) as text, with its
// image outputs encoded for the model; and the nbformat 2/3 → 4 upgrade. Internal to the readers
// library.
#include "mcpread/readers/cancel.hpp"
#include "mcpread/readers/notebook.hpp"
#include "mcpread/readers/outcome.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace mcpread::readers::notebook_cells {

using json = nlohmann::json;

// `obj[key]` when `obj` is an object holding `key`, else nullptr (never inserts, never throws).
const json* member(const json& obj, const char* key);
json* member(json& obj, const char* key);
// nbformat's multiline strings: a string, or an array of strings to concatenate; "" otherwise.
std::string joined(const json* v);
// `obj[key]` when it is a string, else "".
std::string string_member(const json& obj, const char* key);
// A fence info string: letters, digits and + # . _ - only, lower case.
std::string fence_language(std::string_view s);

// nbformat 2 or 3 → 4, in place (doc["worksheets"] must be an array): the cells of all
// worksheets become "cells", "input"/"prompt_number" become "source"/"execution_count", heading
// cells become markdown, pyout/pyerr outputs and their short MIME keys take their nbformat 4
// names (nbformat 2's "etype" becomes "ename").
void upgrade_v3(json& doc);

struct Context {
  const NotebookOptions& options;
  const CancelToken& cancel;
  std::string language;              // fence info string of code cells
  std::size_t images_committed = 0;  // image blocks of the cells already accepted
};

struct CellOut {
  std::string text;                // marker line, source, outputs; ends with "\n"
  std::vector<ImageBlock> images;  // to place right after `text`
  std::size_t unsent = 0;          // image outputs named but not sent because of max_images
  std::size_t trimmed = 0;         // outputs cut to max_chars_per_output
  bool cancelled = false;
};

// Cell `index` (1-based). Images count against ctx.options.max_images from
// ctx.images_committed; the caller commits them when it keeps the cell.
CellOut render_cell(Context& ctx, const json& cell, std::uint64_t index);

}  // namespace mcpread::readers::notebook_cells
