#pragma once
// The rows of a worksheet before the one asked for, cut out of its XML before libxml2 sees it.
// Paging far into a sheet (offset 999,990 of a million rows) only needs to know which rows before
// the page exist and hold a value; parsing them with libxml2's SAX parser cost more than half of
// such a read. This scanner finds their boundaries with memchr and forwards everything else
// (the head with its namespaces, the rows from the first one shown, the merged cells after
// sheetData) unchanged, so libxml2 still parses, checks and refuses all it is given.
//
// What a skipped row holds is not checked for well-formedness: it is never shown. What cannot be
// read safely without a parser makes the scanner forward the rest untouched: a DOCTYPE or other
// declaration outside a row, a row start tag longer than kMaxTag. Inside a skipped row, such
// markup is refused with a sentence, as libxml2 would refuse it. Internal to the readers library.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>

namespace mcpread::readers::sheets {

class RowSkipper {
 public:
  static constexpr std::size_t kMaxTag = 64 * 1024;  // a row start tag is read whole to find its r
  // `skipped` gets each row left out, numbered as SheetReader numbers rows (its `r`, else the one
  // before plus one), and whether it holds a <v>, <is> or <f>; `forward` gets the bytes kept. Either
  // returning false stops the scan (no error).
  using Skipped = std::function<bool(std::uint64_t number, bool has_value)>;
  using Forward = std::function<bool(std::string_view bytes)>;
  RowSkipper(std::uint64_t first_row, std::string_view part, Skipped skipped, Forward forward);

  // The next piece of the worksheet's XML. False once stopped (by a callback or an error).
  bool feed(std::string_view chunk);
  // At the end of the part: forwards what was held back (an unfinished tag).
  bool finish();
  // Also tells each row cut where it lies in the part: [begin, end) from the part's first byte
  // (for an index of a sheet's rows, see row_index.hpp). Set before the first feed().
  using Bounds = std::function<void(std::uint64_t number, std::uint64_t begin, std::uint64_t end, bool has_value)>;
  void on_bounds(Bounds bounds) { bounds_ = std::move(bounds); }
  // Whether it forwards everything from some point on, rows too: the first row of the page was
  // met, or markup it does not read without a parser (a DOCTYPE, an absurd tag) was.
  bool passing() const { return mode_ == Mode::pass; }
  // A sentence naming the part, or empty.
  const std::string& error() const { return error_; }

 private:
  enum class Mode { scan, skip, pass };  // looking for rows / inside a skipped row / forwarding all
  enum class In { text, comment, cdata, pi, tag };
  bool run();
  bool skip_tags();
  bool flush(std::size_t end);  // forwards buf_[sent_, end) unless inside a skipped row
  bool markup(std::size_t at, std::size_t* next, bool* more);
  bool row_start(std::size_t at, std::size_t name_end, std::size_t* next, bool* more);
  bool fail(std::string why);

  std::uint64_t first_row_;
  std::string part_;
  Skipped skipped_;
  Forward forward_;
  Bounds bounds_;
  std::uint64_t base_ = 0;  // bytes of the part before buf_[0]
  std::uint64_t begin_ = 0; // where the skipped row being read starts in the part
  std::string buf_;        // carried bytes plus the current chunk
  std::size_t pos_ = 0;    // next byte of buf_ to look at
  std::size_t sent_ = 0;   // first byte of buf_ not yet forwarded (or dropped)
  Mode mode_ = Mode::scan;
  In in_ = In::text;
  char quote_ = 0;         // inside a tag: the quote of the attribute value being read
  bool slash_ = false;     // inside a tag: the last character outside quotes was '/'
  int tag_ = 0;            // the tag being read inside a skipped row: +1 a nested row start, -1 a row end
  std::uint64_t row_ = 0;  // the last row numbered
  int depth_ = 0;          // row elements open in the skipped row
  bool has_value_ = false;
  bool stopped_ = false;
  std::string error_;
};

}  // namespace mcpread::readers::sheets
