#pragma once
// What RTF's control words mean to the reader: which ones start a destination (a group whose
// text is not the document's, or is the document's in another role), the characters some words
// stand for, "heading N" styles, HYPERLINK fields and list markers. Internal to the readers library.
#include <string>
#include <string_view>

namespace mcpread::readers::rtf {

enum class Dest {
  none,               // the word starts no destination
  body,               // the document's text
  skip,               // text never shown: font and colour tables' data, headers, metadata...
  fonts,              // \fonttbl: its \fN, \fcharsetN and \cpgN
  styles,             // \stylesheet; each entry of it, while read, is `style`
  style,
  footnote,           // \footnote: a note, referenced where it stands
  field,              // \field: \fldinst then \fldrslt
  field_instruction,  // \fldinst: "HYPERLINK \"https://...\""
  field_result,       // \fldrslt: the text shown, in the document
  picture,            // \pict: hex or \bin data
  marker,             // \listtext, \pntext: a list item's bullet or number
  transparent,        // \shppict, \object, \result: their content is read as around them
};

// The destination `word` starts at the beginning of a group; `ignorable` when "\*" came first
// (an unknown destination is then skipped, as the specification asks).
Dest destination_of(std::string_view word, bool ignorable);

// The character a word stands for (\emdash: U+2014); 0 for any other word.
char32_t special_character(std::string_view word);

// 1-6 for a style named "heading 1" ... "heading 6" (any case), 1 for "Title"; 0 otherwise.
int heading_level_of_style(std::string_view name);

// The target of a HYPERLINK field's instruction ("https://x" or "#anchor" for \l); empty for
// another field.
std::string hyperlink_target(std::string_view instruction);

// The number of a list marker such as "3." or "12)"; 0 for a bullet or no marker.
std::size_t ordinal(std::string_view marker);

}  // namespace mcpread::readers::rtf
