// The standard's ISO-2022-JP decoder, its shared UTF-16 decoder and its UTF-8 decoder
// (whatwg_reference.hpp), written as the standard's steps are.
#include "whatwg_reference_internal.hpp"

namespace mcpread::test::whatwg::detail {
namespace {

class Iso2022Jp final : public Decoder {
 public:
  Result handle(Queue& q, int b) override {
    switch (state_) {
      case State::Ascii:
      case State::Roman:
      case State::Katakana:
      case State::LeadingByte:
        return in_text(b);
      case State::TrailingByte:
        if (b == 0x1B) {
          state_ = State::EscapeStart;
          return error();
        }
        state_ = State::LeadingByte;
        if (in(b, 0x21, 0x7E)) {
          const char32_t c = code_point("jis0208", (leading_ - 0x21L) * 94 + b - 0x21);
          return c == 0 ? error() : emit(c);
        }
        return error();  // end-of-queue or any other byte
      case State::EscapeStart:
        if (b == 0x24 || b == 0x28) {
          leading_ = b;
          state_ = State::Escape;
          return cont();
        }
        if (b != kEnd) q.restore({b});
        output_ = false;
        state_ = output_state_;
        return error();
      case State::Escape:
        return escape(q, b);
    }
    return error();
  }

 private:
  enum class State { Ascii, Roman, Katakana, LeadingByte, TrailingByte, EscapeStart, Escape };

  // The four states that show text: each starts an escape on 0x1B and ends on end-of-queue.
  Result in_text(int b) {
    if (b == 0x1B) {
      state_ = State::EscapeStart;
      return cont();
    }
    if (b == kEnd) return finished();
    output_ = false;
    switch (state_) {
      case State::Ascii:
        if (ascii(b) && b != 0x0E && b != 0x0F) return emit(static_cast<char32_t>(b));
        return error();
      case State::Roman:
        if (b == 0x5C) return emit(0x00A5);
        if (b == 0x7E) return emit(0x203E);
        if (ascii(b) && b != 0x0E && b != 0x0F) return emit(static_cast<char32_t>(b));
        return error();
      case State::Katakana:
        if (in(b, 0x21, 0x5F)) return emit(static_cast<char32_t>(0xFF61 - 0x21 + b));
        return error();
      default:  // leading byte
        if (in(b, 0x21, 0x7E)) {
          leading_ = b;
          state_ = State::TrailingByte;
          return cont();
        }
        return error();
    }
  }

  Result escape(Queue& q, int b) {
    const int leading = leading_;
    leading_ = 0;
    bool known = true;
    State state = State::Ascii;
    if (leading == 0x28 && b == 0x42) {
      state = State::Ascii;
    } else if (leading == 0x28 && b == 0x4A) {
      state = State::Roman;
    } else if (leading == 0x28 && b == 0x49) {
      state = State::Katakana;
    } else if (leading == 0x24 && (b == 0x40 || b == 0x42)) {
      state = State::LeadingByte;
    } else {
      known = false;
    }
    if (known) {
      state_ = output_state_ = state;
      const bool output = output_;
      output_ = true;
      return output ? error() : cont();
    }
    if (b == kEnd)
      q.restore({leading});
    else
      q.restore({leading, b});
    output_ = false;
    state_ = output_state_;
    return error();
  }

  State state_ = State::Ascii;
  State output_state_ = State::Ascii;
  int leading_ = 0;
  bool output_ = false;
};

class Utf16 final : public Decoder {
 public:
  explicit Utf16(bool big_endian) : big_endian_(big_endian) {}
  Result handle(Queue& q, int b) override {
    if (b == kEnd && (leading_byte_ >= 0 || leading_surrogate_ != 0)) {
      leading_byte_ = -1;
      leading_surrogate_ = 0;
      return error();
    }
    if (b == kEnd) return finished();
    if (leading_byte_ < 0) {
      leading_byte_ = b;
      return cont();
    }
    const int unit = big_endian_ ? (leading_byte_ << 8) + b : (b << 8) + leading_byte_;
    leading_byte_ = -1;
    if (leading_surrogate_ != 0) {
      const int lead = leading_surrogate_;
      leading_surrogate_ = 0;
      if (in(unit, 0xDC00, 0xDFFF))
        return emit(static_cast<char32_t>(0x10000 + ((lead - 0xD800) << 10) + (unit - 0xDC00)));
      const int byte1 = unit >> 8;
      const int byte2 = unit & 0xFF;
      if (big_endian_)
        q.restore({byte1, byte2});
      else
        q.restore({byte2, byte1});
      return error();
    }
    if (in(unit, 0xD800, 0xDBFF)) {
      leading_surrogate_ = unit;
      return cont();
    }
    if (in(unit, 0xDC00, 0xDFFF)) return error();
    return emit(static_cast<char32_t>(unit));
  }

 private:
  bool big_endian_;
  int leading_byte_ = -1;      // null: -1
  int leading_surrogate_ = 0;  // null: 0
};

class Utf8 final : public Decoder {
 public:
  Result handle(Queue& q, int b) override {
    if (b == kEnd && needed_ != 0) {
      needed_ = 0;
      return error();
    }
    if (b == kEnd) return finished();
    if (needed_ == 0) {
      if (ascii(b)) return emit(static_cast<char32_t>(b));
      if (in(b, 0xC2, 0xDF)) {
        needed_ = 1;
        code_point_ = static_cast<char32_t>(b & 0x1F);
      } else if (in(b, 0xE0, 0xEF)) {
        if (b == 0xE0) lower_ = 0xA0;
        if (b == 0xED) upper_ = 0x9F;
        needed_ = 2;
        code_point_ = static_cast<char32_t>(b & 0xF);
      } else if (in(b, 0xF0, 0xF4)) {
        if (b == 0xF0) lower_ = 0x90;
        if (b == 0xF4) upper_ = 0x8F;
        needed_ = 3;
        code_point_ = static_cast<char32_t>(b & 0x7);
      } else {
        return error();
      }
      return cont();
    }
    if (!in(b, lower_, upper_)) {
      code_point_ = 0;
      needed_ = seen_ = 0;
      lower_ = 0x80;
      upper_ = 0xBF;
      q.restore({b});
      return error();
    }
    lower_ = 0x80;
    upper_ = 0xBF;
    code_point_ = (code_point_ << 6) | static_cast<char32_t>(b & 0x3F);
    if (++seen_ != needed_) return cont();
    const char32_t c = code_point_;
    code_point_ = 0;
    needed_ = seen_ = 0;
    return emit(c);
  }

 private:
  char32_t code_point_ = 0;
  int seen_ = 0, needed_ = 0;
  int lower_ = 0x80, upper_ = 0xBF;
};

}  // namespace

std::unique_ptr<Decoder> make_utf_8() { return std::make_unique<Utf8>(); }
std::unique_ptr<Decoder> make_iso_2022_jp() { return std::make_unique<Iso2022Jp>(); }
std::unique_ptr<Decoder> make_utf_16(bool big_endian) { return std::make_unique<Utf16>(big_endian); }

}  // namespace mcpread::test::whatwg::detail
