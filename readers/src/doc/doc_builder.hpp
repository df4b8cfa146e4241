#pragma once
// What libwv's callbacks build: the characters, paragraph starts and ends it reports, in order,
// made into the office Document (paragraphs, headings, list items, tables, footnotes, field
// results, hyperlinks). Internal to the readers library; not on Windows.
#if !defined(_WIN32)
#include "doc/doc_document.hpp"
#include "doc/wv_api.hpp"
#include "rtf/rtf_text.hpp"

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace mcpread::readers::doc {

class DocBuilder {
 public:
  DocBuilder(wvParseStruct* ps, DocDocument* out, const CancelToken& cancel);
  void character(U16 ch, U8 chartype, U16 lid);  // text, and the control characters
  void special(U16 ch, const CHP* chp);           // fSpec characters: notes, pictures, fields
  void paragraph_begins(const PAP& pap);
  void paragraph_ends();
  void finish();  // the last table, the text still being decoded

 private:
  enum class Region { main, notes, other };
  struct Field {
    std::string code;            // its instruction ("HYPERLINK \"url\""), up to a limit
    bool in_result = false;      // past its separator: what it shows
    std::size_t result_at = 0;   // where its result starts in the paragraph's text
  };

  Region region() const;
  bool hidden_by_field() const;  // inside an instruction: not shown
  void field_char(U16 ch);
  void append(std::string_view utf8);
  void flush();                  // the decoder's text into the paragraph
  void end_cell();
  void end_row();
  void end_table();
  int heading_level() const;
  bool list_item(office::DocBlock* block);

  wvParseStruct* ps_;
  DocDocument* out_;
  const CancelToken& cancel_;
  bool word8_ = false;
  bool stopped_ = false;         // cancelled or over kMaxTextBytes: nothing more is kept
  std::size_t kept_bytes_ = 0;
  std::size_t calls_ = 0;
  rtf::TextDecoder decoder_;
  office::Inline paragraph_;
  struct Props {                 // the paragraph's properties this reader uses
    unsigned istd = 0;           // its style
    int ilfo = 0;                // its list (Word 97), 0 for none
    unsigned ilvl = 0;           // its level in the list
    bool in_table = false;
    bool row_end = false;        // the paragraph that ends a table row (fTtp)
  } props_;
  bool ended_by_cell_ = false;   // its cell mark ended it already
  office::Inline cell_;
  std::vector<std::string> row_;
  office::DocBlock table_;
  std::size_t cells_ = 0;
  std::vector<Field> fields_;
  std::size_t fields_too_deep_ = 0;
  std::size_t note_texts_ = 0;   // footnote and endnote texts met so far
  std::map<int, std::array<std::size_t, 9>> list_numbers_;  // by list (ilfo), per level
};

}  // namespace mcpread::readers::doc
#endif
