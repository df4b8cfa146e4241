#pragma once
// RTF's tokens (the RTF 1.9.1 specification, "Conventions of an RTF Reader"): group braces,
// control words with their optional numeric parameter, control symbols, \'hh bytes, \binN data
// and runs of plain text. No library for RTF is packaged in Debian, so this small tokenizer is
// the project's own; it is fuzzed (fuzz/fuzz_rtf.cpp) and bounds everything it reads.
// Internal to the readers library.
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace mcpread::readers::rtf {

struct Token {
  enum class Kind { open, close, word, symbol, byte, binary, text, end };
  Kind kind = Kind::end;
  std::string_view word;      // word: its letters ("par", "u", "fcharset")
  std::int32_t param = 0;     // word: its parameter, when has_param
  bool has_param = false;
  char symbol = 0;            // symbol: the character after the backslash ('~', '*', '{', '\n'...)
  unsigned char byte = 0;     // byte: the value of \'hh
  std::string_view data;      // text: a run of plain text (no line ends); binary: \binN's bytes
};

class Lexer {
 public:
  explicit Lexer(std::string_view rtf) : in_(rtf) {}
  // The next token; Kind::end at the end of the input. Malformed escapes (a lone backslash at
  // the end, \' without two hex digits) are read as the text they are, never as an error.
  Token next();
  std::size_t offset() const { return at_; }

 private:
  Token control();
  std::string_view in_;
  std::size_t at_ = 0;
};

}  // namespace mcpread::readers::rtf
