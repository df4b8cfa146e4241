#pragma once
// PDFs made at test time: a small generator writing valid files (Helvetica text, correct xref),
// and qpdf (linked by the tests only) to encrypt them and to inspect what the reader sent.
#include <string>
#include <string_view>
#include <vector>

namespace mcpread::test {

struct PdfPage {
  enum class Kind {
    text,     // `lines` in Helvetica 12, from the top left
    drawing,  // a red square and no text at all (a scanned page looks like this to a reader)
    blank,    // no /Contents
    // `lines` drawn with a composite font (Identity-H) that has no /ToUnicode and no font file:
    // every glyph is shown, none maps to a character (text extraction gets nothing).
    unmapped_text,
    // `scan` (8-bit grey pixels, scan_width × scan_height) drawn over the whole page, and no
    // text: a scanned page (ocr_fixtures.hpp makes such pages of text).
    scan,
  };
  Kind kind = Kind::text;
  std::vector<std::string> lines;  // ASCII
  double width = 612;              // points (US Letter)
  double height = 792;
  int rotate = 0;  // /Rotate
  std::string scan = {};  // Kind::scan
  // Kind::text: when not empty, the page's content stream as it is (/F1 is Helvetica), in place
  // of `lines`.
  std::string content = {};
  int scan_width = 0, scan_height = 0;
  // Kind::text: when not empty, /F1 is a font of the page's own (an object of its own, Helvetica
  // with these /Differences, e.g. "65 /Z": "A" shows Z), not the one the other pages share.
  std::string differences = {};
};

// A complete PDF 1.4 file. `title` (UTF-8; stored as UTF-16BE when not ASCII) goes into /Info.
// nested_tree: the pages hang from two intermediate /Pages nodes instead of the root.
// inherited (with nested_tree): each intermediate node holds its pages' /MediaBox, /Resources
// and /Rotate (those of its first page), which its pages inherit instead of having their own.
std::string make_pdf(const std::vector<PdfPage>& pages, const std::string& title = {}, bool nested_tree = false,
                     bool inherited = false);

// The one line of page k in text_pdf: "Page k: the quick brown fox jumps over the lazy dog."
std::string page_line(int k);
// `count` text pages, page k holding page_line(k).
std::string text_pdf(int count, const std::string& title = {});

enum class Cipher { aes256, aes128, rc4_128 };
// `pdf` encrypted by qpdf with these passwords (R6 for AES-256, R4 otherwise).
std::string encrypt_pdf(const std::string& pdf, const std::string& user_password,
                        const std::string& owner_password, Cipher cipher = Cipher::aes256);

// What qpdf finds in a PDF.
struct PdfSummary {
  bool ok = false;
  std::string error;
  int pages = 0;
  bool encrypted = false;
  std::string title;                  // UTF-8
  std::vector<std::string> contents;  // each page's content streams, decoded
  // Each page's /MediaBox (unparsed) and /Rotate, inherited ones included; its font names.
  std::vector<std::string> media_boxes;
  std::vector<int> rotations;
  std::vector<std::vector<std::string>> fonts;
};
PdfSummary inspect_pdf(std::string_view bytes);

}  // namespace mcpread::test
