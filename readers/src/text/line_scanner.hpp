#pragma once
// Internal to the text reader: splits a byte stream into lines without ever holding more than a
// bounded prefix of one line. Lines before the window are skipped with memchr, lines in the
// window go to a callback, and lines after it are counted (or not) with memchr.
#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <string_view>

namespace mcpread::readers::text_detail {

class LineScanner {
 public:
  // One line of the window.
  struct Line {
    std::uint64_t number = 0;
    std::string_view kept;       // from the first shown character on, at most keep_bytes, without
                                 // '\n' and without the '\r' of a CRLF
    std::uint64_t bytes = 0;     // the whole line's length (same exclusions)
    std::uint64_t chars = 0;     // the whole line's UTF-8 characters, when count_chars (see
                                 // Config::count_chars_over)
    bool complete = false;       // `kept` holds the rest of the line
  };
  // Returning false refuses the line (the output is full) and ends the window.
  using Sink = std::function<bool(const Line&)>;

  struct Config {
    std::uint64_t first = 1;     // first line of the window, 1-based
    std::uint64_t limit = 1;     // lines in the window at most
    std::size_t keep_bytes = 0;  // bytes of a line kept in memory
    bool count_rest = false;     // go on counting lines after the window
    // Characters (UTF-8 lead bytes: a stray continuation byte belongs to the character before it)
    // skipped at the start of each shown line before `kept` begins: column - 1.
    std::uint64_t skip_chars = 0;
    bool count_chars = false;    // count each shown line's characters (the stream is UTF-8)
    // ... except a line of at most this many bytes fed in one piece: its count (only ever shown
    // for a line too long to show whole) is left as its byte length, an upper bound.
    std::uint64_t count_chars_over = 0;
  };

  LineScanner(Config config, Sink sink) : cfg_(config), sink_(std::move(sink)) {
    if (cfg_.first == 0) cfg_.first = 1;
    if (cfg_.limit == 0) cfg_.limit = 1;
    phase_ = cfg_.first == 1 ? Phase::Show : Phase::Skip;
  }

  void feed(std::string_view data) {
    const char* p = data.data();
    const char* const end = p + data.size();
    while (p < end && phase_ != Phase::Done) {
      switch (phase_) {
        case Phase::Skip: p = skip(p, end); break;
        case Phase::Show: p = show(p, end); break;
        case Phase::After:
          more_ = true;  // a byte after the last shown line: another line exists
          phase_ = cfg_.count_rest ? Phase::Count : Phase::Done;
          break;
        case Phase::Count: p = count(p, end); break;
        case Phase::Done: break;
      }
    }
  }

  // End of the stream: the last line may lack its '\n'.
  void finish() {
    if (phase_ == Phase::Show && in_line_) emit(completed_ + 1);
    total_ = completed_ + (in_line_ ? 1 : 0);
    at_eof_ = true;
  }

  // Continues from a remembered chunk boundary: `completed` lines ended before the next byte fed,
  // and `in_line` says whether that byte continues a line.
  void resume(std::uint64_t completed, bool in_line) {
    completed_ = completed;
    in_line_ = in_line;
    if (!in_line_ && completed_ + 1 == cfg_.first) phase_ = Phase::Show;
  }

  [[nodiscard]] bool done() const { return phase_ == Phase::Done; }
  [[nodiscard]] std::uint64_t completed() const { return completed_; }
  [[nodiscard]] bool in_line() const { return in_line_; }
  [[nodiscard]] bool reached_eof() const { return at_eof_; }
  [[nodiscard]] std::uint64_t total_lines() const { return total_; }  // valid after finish()
  [[nodiscard]] std::uint64_t shown() const { return shown_; }
  [[nodiscard]] std::uint64_t last_shown() const { return last_shown_; }
  [[nodiscard]] bool more() const { return more_; }        // content follows the shown lines
  [[nodiscard]] bool refused() const { return refused_; }  // the sink refused a line

 private:
  enum class Phase { Skip, Show, After, Count, Done };

  const char* skip(const char* p, const char* end) {
    // Whole blocks without the target line are only counted, which is faster than memchr per line.
    const std::uint64_t wanted = cfg_.first - 1 - completed_;  // newlines still to pass
    const auto n = static_cast<std::size_t>(end - p);
    if (const std::uint64_t here = count_newlines(p, n); here < wanted) {
      completed_ += here;
      in_line_ = end[-1] != '\n';
      return end;
    }
    while (p < end) {
      const auto* nl = static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(end - p)));
      if (nl == nullptr) {
        in_line_ = true;
        return end;
      }
      ++completed_;
      in_line_ = false;
      p = nl + 1;
      if (completed_ + 1 == cfg_.first) {
        phase_ = Phase::Show;
        return p;
      }
    }
    return p;
  }

  const char* show(const char* p, const char* end) {
    const auto* nl = static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(end - p)));
    const char* seg_end = nl != nullptr ? nl : end;
    const auto seg = static_cast<std::size_t>(seg_end - p);
    if (nl != nullptr && cur_length_ == 0 && cfg_.skip_chars == 0) {
      // The usual line: whole in this piece and shown from its start. It is handed over where
      // it lies, not copied into cur_ first.
      if (cfg_.count_chars) cur_chars_ = seg <= cfg_.count_chars_over ? seg : count_leads(p, seg);
      whole_ = std::string_view(p, seg < cfg_.keep_bytes ? seg : cfg_.keep_bytes);
      in_whole_ = true;
      cur_length_ = seg;
      cur_last_ = seg > 0 ? seg_end[-1] : 0;
    } else if (seg > 0) {
      if (cfg_.count_chars) {
        const bool short_whole = cur_length_ == 0 && nl != nullptr && seg <= cfg_.count_chars_over;
        cur_chars_ += short_whole ? seg : count_leads(p, seg);
      }
      const char* keep_from = skip_to_column(p, seg_end);
      const auto rest = static_cast<std::size_t>(seg_end - keep_from);
      const std::size_t room = cfg_.keep_bytes > cur_.size() ? cfg_.keep_bytes - cur_.size() : 0;
      cur_.append(keep_from, rest < room ? rest : room);
      cur_length_ += seg;
      cur_last_ = seg_end[-1];
      in_line_ = true;
    }
    if (nl == nullptr) return end;
    ++completed_;
    in_line_ = false;
    emit(completed_);
    return nl + 1;
  }

  const char* count(const char* p, const char* end) {
    completed_ += count_newlines(p, static_cast<std::size_t>(end - p));
    in_line_ = end[-1] != '\n';
    return end;
  }

  static bool is_lead(char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }

  // UTF-8 characters in p[0, n): the bytes that are not continuation bytes (10xxxxxx), eight
  // at a time (a continuation byte has bit 7 set and bit 6, shifted onto bit 7, clear).
  static std::uint64_t count_leads(const char* p, std::size_t n) {
    constexpr std::uint64_t kHigh = 0x8080808080808080ull;
    std::uint64_t continuation = 0;
    std::size_t i = 0;
    for (; i + 8 <= n; i += 8) {
      std::uint64_t w;
      std::memcpy(&w, p + i, sizeof w);
      // One bit per byte, on bit 7: shifted to bit 0 and summed by a multiply (std::popcount
      // is a libgcc call on the x86-64 baseline, which has no POPCNT, and showed in profiles).
      continuation += (((w & ~(w << 1) & kHigh) >> 7) * 0x0101010101010101ull) >> 56;
    }
    for (; i < n; ++i) continuation += is_lead(p[i]) ? 0 : 1;
    return n - continuation;
  }

  // Passes over the first skip_chars characters of the current line; returns where the kept part
  // of [p, end) begins (end while still skipping). Never splits a character: the kept part
  // starts on a lead byte.
  const char* skip_to_column(const char* p, const char* end) {
    if (cur_started_) return p;
    if (cfg_.skip_chars == 0) {
      cur_started_ = true;
      return p;
    }
    // Whole segments before the column are only counted.
    const auto n = static_cast<std::size_t>(end - p);
    if (const std::uint64_t leads = count_leads(p, n); cur_skipped_ + leads <= cfg_.skip_chars) {
      cur_skipped_ += leads;
      cur_skipped_bytes_ += n;
      return end;
    }
    for (const char* q = p; q < end; ++q) {
      if (is_lead(*q)) {
        if (cur_skipped_ == cfg_.skip_chars) {
          cur_started_ = true;
          cur_skipped_bytes_ += static_cast<std::uint64_t>(q - p);
          return q;
        }
        ++cur_skipped_;
      }
    }
    cur_skipped_bytes_ += n;  // not reached: the count above said the column lies in [p, end)
    return end;
  }

  // Number of '\n' bytes in p[0, n): eight bytes at a time, a 0/1 flag per byte lane summed in
  // blocks of 255 words so that no lane overflows (several GB/s, even unoptimised).
  static std::uint64_t count_newlines(const char* p, std::size_t n) {
    constexpr std::uint64_t kLow7 = 0x7F7F7F7F7F7F7F7Full;
    constexpr std::uint64_t kNewlines = 0x0A0A0A0A0A0A0A0Aull;
    constexpr std::uint64_t kEvenBytes = 0x00FF00FF00FF00FFull;
    std::uint64_t total = 0;
    std::size_t i = 0;
    while (n - i >= 8) {
      const std::size_t words = std::min<std::size_t>((n - i) / 8, 255);
      const std::size_t stop = i + words * 8;
      std::uint64_t lanes = 0;
      for (; i < stop; i += 8) {
        std::uint64_t w;
        std::memcpy(&w, p + i, sizeof w);
        const std::uint64_t x = w ^ kNewlines;                   // 0x00 where a byte is '\n'
        const std::uint64_t nonzero = ((x & kLow7) + kLow7) | x;  // high bit set on non-zero bytes
        lanes += (~nonzero & ~kLow7) >> 7;                        // 1 in each '\n' lane
      }
      lanes = (lanes & kEvenBytes) + ((lanes >> 8) & kEvenBytes);  // four 16-bit sums
      total += (lanes * 0x0001000100010001ull) >> 48;
    }
    for (; i < n; ++i) total += p[i] == '\n' ? 1 : 0;
    return total;
  }

  void emit(std::uint64_t number) {
    Line line;
    line.number = number;
    const bool crlf = cur_length_ > 0 && cur_last_ == '\r';
    line.bytes = cur_length_ - (crlf ? 1 : 0);
    line.chars = cur_chars_ - (crlf && cfg_.count_chars ? 1 : 0);
    // What follows the skipped characters, the '\r' of a CRLF excluded.
    const std::uint64_t rest = line.bytes > cur_skipped_bytes_ ? line.bytes - cur_skipped_bytes_ : 0;
    const std::string_view kept = in_whole_ ? whole_ : std::string_view(cur_);
    line.complete = kept.size() >= rest;
    line.kept = kept;
    if (line.kept.size() > rest) line.kept = line.kept.substr(0, static_cast<std::size_t>(rest));
    const bool accepted = sink_(line);
    cur_.clear();
    in_whole_ = false;
    cur_length_ = 0;
    cur_last_ = 0;
    cur_chars_ = 0;
    cur_skipped_ = 0;
    cur_skipped_bytes_ = 0;
    cur_started_ = false;
    if (!accepted) {
      refused_ = true;
      more_ = true;
      phase_ = cfg_.count_rest ? Phase::Count : Phase::Done;
      return;
    }
    ++shown_;
    last_shown_ = number;
    if (shown_ == cfg_.limit) phase_ = Phase::After;
  }

  Config cfg_;
  Sink sink_;
  Phase phase_ = Phase::Skip;
  std::uint64_t completed_ = 0;  // lines ended by '\n' so far
  bool in_line_ = false;         // bytes seen since the last '\n'
  std::string cur_;              // kept prefix of the line being shown
  std::string_view whole_;       // ... or, for a line fed in one piece, its kept prefix in place
  bool in_whole_ = false;        // whole_ holds the line to emit
  std::uint64_t cur_length_ = 0;
  char cur_last_ = 0;
  std::uint64_t cur_chars_ = 0;          // characters of the line so far (count_chars)
  std::uint64_t cur_skipped_ = 0;        // characters passed over before the column
  std::uint64_t cur_skipped_bytes_ = 0;  // their bytes
  bool cur_started_ = false;             // the column is reached: bytes are kept
  std::uint64_t shown_ = 0;
  std::uint64_t last_shown_ = 0;
  std::uint64_t total_ = 0;
  bool more_ = false;
  bool refused_ = false;
  bool at_eof_ = false;
};

}  // namespace mcpread::readers::text_detail
