#pragma once
// RTF text to UTF-8: bytes (plain text and \'hh) are in the code page of the current font's
// charset (\fcharsetN, \cpgN) or the document's (\ansicpgN, \mac, \pc); \uN gives a UTF-16 unit
// directly. Internal to the readers library.
#include "mcpread/readers/charset.hpp"
#include "utf8_internal.hpp"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>

namespace mcpread::readers::rtf {

// The decoder name (as Utf8Converter takes it) of Windows code page `codepage`; empty for one
// mcp-read has no name for.
std::string codepage_name(int codepage);
// The code page of font charset `charset` (\fcharsetN); 0 for "the document's" (ANSI, default).
int charset_codepage(int charset);

class TextDecoder {
 public:
  // Bytes from now on are in this code page (0: the document's, `document_codepage`).
  void use_codepage(int codepage);
  void set_document_codepage(int codepage) { document_codepage_ = codepage; }
  void add_bytes(std::string_view bytes) { pending_ += bytes; }
  // A UTF-16 unit from \uN (negative values are units above 0x7FFF, as RTF writes them).
  void add_unit(std::int32_t unit);
  // The text so far, decoded and appended to `out`; the decoder starts empty again.
  void flush(std::string& out);

 private:
  void decode_pending();
  std::string pending_;       // bytes in `codepage_`
  std::string ready_;         // UTF-8 decoded so far
  int codepage_ = 0;
  int document_codepage_ = 1252;
  utf8::detail::Utf16Units units_;  // \uN's units, a pair's halves in two words
  std::map<std::string, std::unique_ptr<Utf8Converter>> converters_;
};

}  // namespace mcpread::readers::rtf
