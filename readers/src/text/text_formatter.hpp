#pragma once
// Internal to the text reader: numbers the shown lines as `cat -n` does, into the answer's text,
// and keeps it under the output cap.
#include "line_scanner.hpp"
#include "mcpread/readers/charset.hpp"
#include "mcpread/readers/hint.hpp"
#include "mcpread/readers/text.hpp"
#include "utf8_internal.hpp"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>

namespace mcpread::readers::text_detail {

enum class Mode { Utf8, PerLine, Stream };

// "%6d\t" without printf, for each shown line: consecutive numbers are counted up in place,
// digit by digit (to_chars only for the first, and when a number gains a digit).
class LineNumbers {
 public:
  // The prefix is read from prefix() as kReadable bytes, of which prefix_size() are its own.
  static constexpr std::size_t kReadable = 24;

  void set(std::uint64_t n) {
    if (last_ != 0 && n == last_ + 1 && count_up()) {
      last_ = n;
      return;
    }
    char* const digits_at = buf_ + kPad;
    char* const end = std::to_chars(digits_at, buf_ + sizeof buf_ - 1, n).ptr;
    digits_ = static_cast<std::size_t>(end - digits_at);
    start_ = digits_ < 6 ? digits_at - (6 - digits_) : digits_at;
    *end = '\t';
    last_ = n;
  }
  [[nodiscard]] const char* prefix() const { return start_; }
  [[nodiscard]] std::size_t prefix_size() const { return static_cast<std::size_t>(buf_ + kPad - start_) + digits_ + 1; }

 private:
  static constexpr std::size_t kPad = 8;  // spaces before the digits, of which 6 - digits are shown

  // Adds one to the digits; false (digits left zeroed) when the number needs one more digit.
  bool count_up() {
    for (char* p = buf_ + kPad + digits_ - 1; p >= buf_ + kPad; --p) {
      if (*p != '9') {
        ++*p;
        return true;
      }
      *p = '0';
    }
    return false;
  }

  // Spaces, up to 20 digits, '\t', and enough after it for kReadable bytes from any start.
  char buf_[kPad + kReadable] = {' ', ' ', ' ', ' ', ' ', ' ', ' ', ' '};
  const char* start_ = buf_;
  std::size_t digits_ = 0;
  std::uint64_t last_ = 0;
};

// Formats the shown lines as `cat -n` does and enforces the output cap.
class Formatter {
 public:
  Formatter(Mode mode, const std::string& charset, const TextOptions& o)
      : mode_(mode), max_chars_(o.max_line_chars), cap_(o.max_output_bytes), column_(o.column),
        wording_(o.wording) {
    if (mode_ == Mode::PerLine) line_converter_ = std::make_unique<Utf8Converter>(charset);
    // The whole answer at once, with room for the line that goes past the cap before it is taken
    // back: grown by doubling, a 100 KiB answer passed through a 164 KiB buffer, which glibc maps
    // afresh (and unmaps) on every read (server/src/main.cpp).
    out_.reserve(std::min<std::size_t>(cap_, 1 << 20) + 16 * 1024);
  }

  // Writes the line into the answer itself; a line that does not fit is taken back out.
  bool line(const LineScanner::Line& l) {
    const std::size_t before = len_;
    const std::uint64_t replaced_before = replaced_, cut_before = cut_;
    numbers_.set(l.number);
    const char* const start = numbers_.prefix();
    const std::size_t prefix = numbers_.prefix_size();
    std::string_view text = l.kept;
    if (line_converter_) {
      decoded_.clear();
      line_converter_->convert(l.kept, decoded_, true);
      text = decoded_;
    }
    if (l.complete && text.size() <= max_chars_ &&
        utf8::detail::all_ascii(reinterpret_cast<const unsigned char*>(text.data()), text.size())) {
      // The usual line, whole, ASCII and not too long (nothing to replace, count or cut), is
      // copied straight into the room at the end of the answer.
      char* d = room(LineNumbers::kReadable + text.size() + 1);
      std::memcpy(d, start, LineNumbers::kReadable);  // the prefix and what follows it
      d += prefix;
      std::memcpy(d, text.data(), text.size());
      d[text.size()] = '\n';
      len_ += prefix + text.size() + 1;
      return keep(before, replaced_before, cut_before);
    }
    std::string& out = written();
    out.append(start, prefix);
    const auto r = utf8::detail::append_sanitized_prefix(text, max_chars_, out);
    if (mode_ == Mode::Utf8) {
      replaced_ += r.replacements;
    } else {  // the decoder's U+FFFD
      const std::string_view shown = text.substr(0, r.consumed);
      for (std::size_t at = shown.find(utf8::detail::kReplacement); at != std::string_view::npos;
           at = shown.find(utf8::detail::kReplacement, at + utf8::detail::kReplacement.size()))
        ++replaced_;
    }
    if (!l.complete || r.consumed < text.size()) {
      // Says exactly how to read on: the same line, from the next character.
      const std::uint64_t last = column_ - 1 + r.chars;
      // Per-line decoding sees only the kept bytes, so the length is known in file bytes only.
      const std::string length = mode_ == Mode::PerLine
                                     ? " characters (" + std::to_string(l.bytes) + " bytes in full)"
                                     : " of " + std::to_string(l.chars) + " characters";
      out += " \xE2\x80\xA6 [line cut at " + std::to_string(last) + length + "; read on with " +
             wording_.say({.offset = l.number, .limit = 1, .column = last + 1}, HintForm::arguments) + "]";
      ++cut_;
    }
    out += '\n';
    len_ = out.size();
    return keep(before, replaced_before, cut_before);
  }

  // The answer; a reservation left mostly unused is given back (answers may be kept a while).
  std::string& text() {
    written();
    if (out_.capacity() > 2 * out_.size() + 4096) out_.shrink_to_fit();
    return out_;
  }
  [[nodiscard]] std::uint64_t cut() const { return cut_; }
  [[nodiscard]] std::uint64_t replaced() const { return replaced_; }

 private:
  Mode mode_;
  std::size_t max_chars_;
  std::size_t cap_;
  std::uint64_t column_;
  Wording wording_;
  // The answer is out_'s first len_ bytes. Past them out_ holds zeroed room for the next lines,
  // added a window at a time: std::string zeroes what it grows by, and two appends per line
  // cost more than copying the line.
  static constexpr std::size_t kRoomWindow = 1024;
  char* room(std::size_t n) {
    if (out_.size() - len_ < n) out_.resize(len_ + std::max(n, kRoomWindow));
    return out_.data() + len_;
  }
  std::string& written() {
    out_.resize(len_);
    return out_;
  }
  // The line just written stays unless it took the answer past the cap (the first line always
  // stays).
  bool keep(std::size_t before, std::uint64_t replaced_before, std::uint64_t cut_before) {
    if (shown_ > 0 && len_ > cap_) {
      len_ = before;
      replaced_ = replaced_before;
      cut_ = cut_before;
      return false;
    }
    ++shown_;
    return true;
  }

  std::unique_ptr<Utf8Converter> line_converter_;
  LineNumbers numbers_;
  std::string out_;
  std::size_t len_ = 0;
  std::string decoded_;
  std::uint64_t shown_ = 0;
  std::uint64_t cut_ = 0;
  std::uint64_t replaced_ = 0;
};

}  // namespace mcpread::readers::text_detail
