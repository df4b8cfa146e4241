#pragma once
// A Word 97-2003 document (.doc, .dot; Word 6 and 95 too) parsed by libwv into the office
// readers' Document: paragraphs, headings (the built-in "heading N" styles), list items (Word 97
// lists), tables, footnotes and field results. Pictures are counted, not kept. Internal to the
// readers library.
#include "mcpread/readers/cancel.hpp"
#include "office/document.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace mcpread::readers::doc {

struct DocDocument {
  office::Document doc;
  std::size_t pictures = 0;   // pictures and drawings met in the text, none shown
  bool text_cut = false;      // the text went past kMaxTextBytes: the rest was dropped
  std::string version;        // "Word 97-2003", "Word 6", "Word 95"
};

inline constexpr std::size_t kMaxTextBytes = 32u << 20;  // text kept from one document at most

inline constexpr unsigned kParseSeconds = 30;              // a parse taking longer is stopped
inline constexpr std::uint64_t kParseMemoryBytes = 2ull << 30;  // the parsing process's address space

// False with a sentence in *error (no final period): libwv missing, not an OLE2 compound file,
// no WordDocument stream, encrypted, a Word version libwv does not read; libwv crashed or ran
// past kParseSeconds. libwv is old C code that crashes on some damaged files and keeps its state
// in globals, so the parse runs in a child process (fork) that sends the Document back: a crash
// costs that read, not the server.
bool read_doc(std::string_view bytes, DocDocument* out, std::string* error, const CancelToken& cancel);

// The parse itself, in this process (the child's work; the fuzz target's replay).
bool parse_doc(std::string_view bytes, DocDocument* out, std::string* error, const CancelToken& cancel);

}  // namespace mcpread::readers::doc
