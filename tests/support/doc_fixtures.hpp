#pragma once
// Word 97-2003 documents made on the spot for the .doc reader's tests: an OLE2 compound file
// (version 3, 512-byte sectors, every stream in the regular FAT) holding a WordDocument stream
// (the FIB, the text as one piece, one FKP page of paragraph and one of character properties) and
// its 1Table stream (the piece table, a stylesheet of "Normal" and "heading 1", the FKPs' bin
// tables). Enough of the format for libwv to read paragraphs, headings, tables, notes and fields.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace mcpread::test {

struct WordParagraph {
  // Without its mark: "\r" is added (a cell's "\x07" ends it instead). U+0001, U+0002, U+0005,
  // U+0008 and the field marks U+0013 to U+0015 are stored as special characters (fSpec).
  std::u16string text;
  unsigned istd = 0;            // 0 "Normal", 1 "heading 1"
  bool in_table = false;
  bool row_end = false;         // the paragraph ending a table row: text u"\x07"
};

struct WordDocSpec {
  std::vector<WordParagraph> main;
  std::vector<WordParagraph> footnotes;  // the footnote texts, after the main text
  bool compressed = false;      // the text stored 8-bit (Windows-1252) rather than UTF-16
  bool encrypted = false;       // the FIB's fEncrypted flag
  std::uint16_t nfib = 0x00C1;  // 0x00C1: Word 97; below 101: Word 2
};

// The .doc file's bytes.
std::string word_document(const WordDocSpec& spec);

// An OLE2 compound file holding `streams` (name, bytes), each padded to 4 KiB or more so that
// none goes to the mini stream; at most 120 sectors in all.
std::string compound_file(std::vector<std::pair<std::u16string, std::string>> streams);

}  // namespace mcpread::test
