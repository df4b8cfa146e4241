#include "rtf/rtf_lexer.hpp"

#include <algorithm>

namespace mcpread::readers::rtf {
namespace {

constexpr std::size_t kMaxWordLetters = 32;  // the specification's limit on a control word
constexpr int kMaxParamDigits = 10;          // a signed 32-bit parameter at most

bool letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool digit(char c) { return c >= '0' && c <= '9'; }
int hex_value(char c) {
  if (digit(c)) return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

Token Lexer::next() {
  for (;;) {
    if (at_ >= in_.size()) return {};
    const char c = in_[at_];
    if (c == '{' || c == '}') {
      ++at_;
      Token t;
      t.kind = c == '{' ? Token::Kind::open : Token::Kind::close;
      return t;
    }
    if (c == '\\') return control();
    if (c == '\r' || c == '\n') {  // line ends in RTF source carry no meaning
      ++at_;
      continue;
    }
    const std::size_t end = std::min(in_.find_first_of("{}\\\r\n", at_), in_.size());
    Token t;
    t.kind = Token::Kind::text;
    t.data = in_.substr(at_, end - at_);
    at_ = end;
    return t;
  }
}

Token Lexer::control() {
  Token t;
  const std::size_t start = at_++;  // the backslash
  if (at_ >= in_.size()) {          // a lone backslash at the end: the character itself
    t.kind = Token::Kind::text;
    t.data = in_.substr(start, 1);
    return t;
  }
  const char c = in_[at_];
  if (!letter(c)) {
    ++at_;
    if (c == '\'') {
      const int hi = at_ < in_.size() ? hex_value(in_[at_]) : -1;
      const int lo = at_ + 1 < in_.size() ? hex_value(in_[at_ + 1]) : -1;
      if (hi < 0 || lo < 0) {  // not a byte: read as the text it is
        t.kind = Token::Kind::text;
        t.data = in_.substr(start, at_ - start);
        return t;
      }
      at_ += 2;
      t.kind = Token::Kind::byte;
      t.byte = static_cast<unsigned char>(hi * 16 + lo);
      return t;
    }
    t.kind = Token::Kind::symbol;
    t.symbol = c == '\r' ? '\n' : c;  // "\<line end>" is \par
    return t;
  }
  const std::size_t word_start = at_;
  while (at_ < in_.size() && letter(in_[at_]) && at_ - word_start < kMaxWordLetters) ++at_;
  while (at_ < in_.size() && letter(in_[at_])) ++at_;  // letters past the limit are dropped
  t.kind = Token::Kind::word;
  t.word = in_.substr(word_start, std::min(at_ - word_start, kMaxWordLetters));
  bool negative = false;
  if (at_ + 1 < in_.size() && in_[at_] == '-' && digit(in_[at_ + 1])) {
    negative = true;
    ++at_;
  }
  std::int64_t value = 0;
  int digits = 0;
  while (at_ < in_.size() && digit(in_[at_])) {
    if (digits < kMaxParamDigits) value = value * 10 + (in_[at_] - '0');
    ++digits;
    ++at_;
  }
  if (digits > 0) {
    value = std::min<std::int64_t>(value, INT32_MAX);
    t.has_param = true;
    t.param = static_cast<std::int32_t>(negative ? -value : value);
  }
  if (at_ < in_.size() && in_[at_] == ' ') ++at_;  // the delimiting space belongs to the word
  if (t.word == "bin" && t.has_param) {            // \binN: N bytes of data, braces and all
    const std::size_t n = t.param > 0 ? std::min<std::size_t>(static_cast<std::size_t>(t.param), in_.size() - at_) : 0;
    t.kind = Token::Kind::binary;
    t.data = in_.substr(at_, n);
    at_ += n;
  }
  return t;
}

}  // namespace mcpread::readers::rtf
