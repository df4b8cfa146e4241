#pragma once
// What DOCX and ODT are both read into before they become text: a list of top-level blocks (the
// unit `offset`/`limit` count, "paragraphs"), their text already inline Markdown (links, note
// references, comments), the notes they reference and the images they hold. Internal to the
// readers library.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace mcpread::readers::office {

struct DocBlock {
  enum class Type { paragraph, heading, list_item, table };
  Type type = Type::paragraph;
  int level = 0;                    // heading 1-6; list nesting from 0
  bool ordered = false;             // list item numbered
  std::size_t number = 0;           // its number when ordered
  std::string list;                 // which list the item belongs to (a blank line parts lists)
  std::string text;                 // inline Markdown, one line or several
  std::vector<std::vector<std::string>> rows;  // table cells, inline Markdown each
  std::vector<std::size_t> notes;   // indexes into Document::notes referenced here
  std::vector<std::string> images;  // package paths of the images, in order
};

struct Note {
  std::string label;  // "1", "e1": shown as [^label]
  std::string text;
};

struct Document {
  std::vector<DocBlock> blocks;
  std::vector<Note> notes;
  std::size_t comments = 0;
  std::size_t images = 0;
  std::size_t tables = 0;
};

// What a paragraph's (or a cell's) inline content gathers while its XML is walked.
struct Inline {
  std::string text;                 // inline Markdown, not yet squeezed
  std::vector<std::size_t> notes;   // indexes into Document::notes
  std::vector<std::string> images;  // package paths
};

// The paragraph `in` makes, its text squeezed and its notes and images moved in; false when it
// holds neither text nor an image (the caller then adds nothing). The caller sets its type.
bool take_paragraph(Inline& in, DocBlock* block);

// Appends a finished block to the document, counting its images (and itself when a table).
void add_block(Document& doc, DocBlock block);

// Refusals of hostile or unreadable input while building a Document.
inline constexpr std::size_t kMaxTableCells = 100000;

// Inline text cleaned for Markdown: runs of whitespace made one space, ends trimmed.
std::string squeeze(std::string_view text);

// "|" escaped and line breaks made "<br>", for a table cell.
std::string table_cell(std::string_view text);

// One block as Markdown: "## Title", "  - item", "1. item", a Markdown table, a paragraph.
std::string render_block(const DocBlock& block);

}  // namespace mcpread::readers::office
