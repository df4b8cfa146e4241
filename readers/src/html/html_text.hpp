#pragma once
// HTML as text for a model, parsed by libxml2's HTML parser (the same recovery from broken markup
// a browser-like parser gives): tables as Markdown tables, everything else as plain text with its
// paragraphs and line breaks. Used for notebooks' text/html outputs (pandas DataFrame and Styler
// tables above all). Internal to the readers library; exposed for tests.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace mcpread::readers::html_text {

struct Text {
  std::string text;        // valid UTF-8, no trailing newline; empty when the HTML shows nothing
  std::size_t tables = 0;  // tables rendered as Markdown tables
  std::string error;       // set when the HTML could not be parsed (libxml2 missing); text is empty
};

// Tables: one Markdown table each, the header made of the <thead> rows (or of a first row of <th>
// cells only; an empty header otherwise), several header rows merged per column, colspan and
// rowspan cells repeated in every column and row they span, "|" escaped, each cell's text on one
// line. Other markup: script, style and head dropped; paragraphs, headings (as "#" lines), lists
// ("- " and "1. " items), <pre> and <br> kept as line structure; whitespace collapsed elsewhere;
// entities decoded.
// With `links`, a link with an href (not "#..." or "javascript:") reads [text](href).
// With `images`, an <img> (or an SVG <image>) reads "[Image N: alt]", N counted on from
// images->first_number, and its src is added to images->sources (e-book chapters' pictures).
struct ImageRefs {
  std::size_t first_number = 1;
  std::vector<std::string> sources;
};
Text to_text(std::string_view html, bool links = false, ImageRefs* images = nullptr);

}  // namespace mcpread::readers::html_text
