#pragma once
// A document's own text written as a Markdown block by a reader that also writes list markers:
// a line of the text that begins like an ordered-list item ("1. ", "2) ") gets its marker escaped
// ("1\. "), as CommonMark says and Markdown writers do, so that a reader of the answer (a model,
// the corpus's comparison) tells a number typed into the document from the reader's own
// numbering. Internal to the readers library.
#include <string>
#include <string_view>

namespace mcpread::readers {

// `text` with each line's leading ordered-list marker escaped: 1 to 9 digits, then "." or ")",
// then a space, a tab or the line's end ("2024. Budget" is one too; "3.5 kg", "1.2.3" are not).
std::string escape_list_numbers(std::string_view text);

}  // namespace mcpread::readers
