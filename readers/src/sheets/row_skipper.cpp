#include "sheets/row_skipper.hpp"

#include "sheets/sheet_table.hpp"

#include <charconv>
#include <cstring>
#include <utility>

namespace mcpread::readers::sheets {
namespace {

bool space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

std::string_view local_name(std::string_view name) {
  const auto colon = name.rfind(':');
  return colon == std::string_view::npos ? name : name.substr(colon + 1);
}

// The `r` attribute of a row start tag's attributes (`text` lies between its name and its '>').
std::string_view r_attribute(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && space(text[i])) ++i;
    const std::size_t name = i;
    while (i < text.size() && text[i] != '=' && !space(text[i]) && text[i] != '/') ++i;
    const std::string_view key = text.substr(name, i - name);
    while (i < text.size() && space(text[i])) ++i;
    if (i >= text.size() || text[i] != '=') return {};
    ++i;
    while (i < text.size() && space(text[i])) ++i;
    if (i >= text.size() || (text[i] != '"' && text[i] != '\'')) return {};
    const char q = text[i++];
    const std::size_t end = text.find(q, i);
    if (end == std::string_view::npos) return {};
    if (local_name(key) == "r" && !key.starts_with("xmlns:")) return text.substr(i, end - i);  // xmlns:r declares
    i = end + 1;
  }
  return {};
}

}  // namespace

RowSkipper::RowSkipper(std::uint64_t first_row, std::string_view part, Skipped skipped, Forward forward)
    : first_row_(first_row), part_(part), skipped_(std::move(skipped)), forward_(std::move(forward)) {}

bool RowSkipper::fail(std::string why) {
  error_ = "\"" + part_ + "\" is not well-formed XML (" + std::move(why) + ")";
  stopped_ = true;
  return false;
}

bool RowSkipper::flush(std::size_t end) {
  if (end > sent_ && mode_ != Mode::skip && !forward_(std::string_view(buf_).substr(sent_, end - sent_))) {
    stopped_ = true;
    return false;
  }
  sent_ = end;
  return true;
}

bool RowSkipper::feed(std::string_view chunk) {
  if (stopped_) return false;
  if (mode_ == Mode::pass && sent_ == buf_.size()) {
    if (forward_(chunk)) return true;
    stopped_ = true;
    return false;
  }
  buf_.erase(0, sent_);
  base_ += sent_;
  pos_ -= sent_;
  sent_ = 0;
  buf_.append(chunk);
  return run();
}

bool RowSkipper::finish() {
  if (stopped_) return false;
  if (mode_ == Mode::skip) return true;  // the part ends inside a row: libxml2 says so
  return flush(buf_.size());
}

// Looks at the markup starting at buf_[at] == '<'. *more when the buffer ends before it can be
// told apart; else *next is where to go on.
bool RowSkipper::markup(std::size_t at, std::size_t* next, bool* more) {
  const std::string_view b(buf_);
  const std::string_view rest = b.substr(at);
  if (rest.size() < 2) return *more = true;
  if (rest[1] == '!') {
    if (rest.starts_with("<!--")) {
      in_ = In::comment;
      *next = at + 4;
    } else if (rest.starts_with("<![CDATA[")) {
      in_ = In::cdata;
      *next = at + 9;
    } else if ((rest.size() < 9 && std::string_view("<![CDATA[").starts_with(rest)) ||
               (rest.size() < 4 && std::string_view("<!--").starts_with(rest))) {
      *more = true;
    } else if (mode_ == Mode::skip) {
      return fail("a declaration inside row " + std::to_string(row_));
    } else {
      if (!flush(at)) return false;
      mode_ = Mode::pass;  // a DOCTYPE, say: libxml2 refuses it
      *next = at;
    }
    return true;
  }
  if (rest[1] == '?') {
    in_ = In::pi;
    *next = at + 2;
    return true;
  }
  const bool closing = rest[1] == '/';
  std::size_t name_end = at + (closing ? 2 : 1);
  while (name_end < b.size() && !space(b[name_end]) && b[name_end] != '>' && b[name_end] != '/') ++name_end;
  if (name_end == b.size()) {
    if (name_end - at <= kMaxTag) return *more = true;
    if (mode_ == Mode::skip) return fail("a tag name of more than 64 KiB inside row " + std::to_string(row_));
    if (!flush(at)) return false;
    mode_ = Mode::pass;
    *next = at;
    return true;
  }
  const std::string_view local = local_name(b.substr(at + (closing ? 2 : 1), name_end - at - (closing ? 2 : 1)));
  if (!closing && mode_ == Mode::scan && local == "row") return row_start(at, name_end, next, more);
  tag_ = 0;
  if (mode_ == Mode::skip) {
    if (closing && local == "row") tag_ = -1;
    else if (!closing && local == "row") tag_ = 1;
    else if (!closing && (local == "v" || local == "is" || local == "f")) has_value_ = true;
    // Any other tag is not read to its end: '<' never stands in an attribute value of
    // well-formed XML, so the next '<' starts the next markup.
    if (tag_ == 0) {
      *next = name_end;
      return true;
    }
  }
  in_ = In::tag;
  quote_ = 0;
  slash_ = false;
  *next = name_end;
  return true;
}

// A row start tag met while looking for rows: skipped, or the first row kept.
bool RowSkipper::row_start(std::size_t at, std::size_t name_end, std::size_t* next, bool* more) {
  const std::string_view b(buf_);
  char q = 0;
  std::size_t gt = name_end;
  for (; gt < b.size(); ++gt) {
    if (q != 0) q = b[gt] == q ? 0 : q;
    else if (b[gt] == '"' || b[gt] == '\'') q = b[gt];
    else if (b[gt] == '>') break;
  }
  if (gt == b.size()) {
    if (gt - at <= kMaxTag) return *more = true;
    if (!flush(at)) return false;  // an absurd tag: libxml2 judges the rest
    mode_ = Mode::pass;
    *next = at;
    return true;
  }
  const std::string_view r = r_attribute(b.substr(name_end, gt - name_end));
  std::uint64_t number = 0;
  const auto got = std::from_chars(r.data(), r.data() + r.size(), number);
  number = got.ec == std::errc() && number > 0 && number <= kMaxRows ? number : row_ + 1;
  if (!flush(at)) return false;
  if (number >= first_row_) {
    mode_ = Mode::pass;
    *next = at;
    return true;
  }
  row_ = number;
  begin_ = base_ + at;
  sent_ = gt + 1;  // the start tag is dropped
  *next = gt + 1;
  if (b[gt - 1] == '/') {  // <row r="3"/>: nothing in it
    if (bounds_) bounds_(number, begin_, base_ + gt + 1, false);
    if (skipped_(number, false)) return true;
    stopped_ = true;
    return false;
  }
  mode_ = Mode::skip;
  depth_ = 1;
  has_value_ = false;
  return true;
}

// The hot loop inside a skipped row: from '<' to '<', reading only tag names. True when it
// stopped at the end of the buffer; false at markup for markup() to look at (a comment, a row's
// start or end, a name cut by the end of the buffer).
bool RowSkipper::skip_tags() {
  const char* const end = buf_.data() + buf_.size();
  const char* at = buf_.data() + pos_;
  for (;;) {
    // Tags lie a few bytes apart in a row: a plain loop beats memchr's call for such gaps.
    while (at < end && *at != '<') ++at;
    if (at == end) {
      pos_ = buf_.size();
      return true;
    }
    pos_ = static_cast<std::size_t>(at - buf_.data());
    if (end - at < 2 || at[1] == '!' || at[1] == '?') return false;
    const char* name = at + (at[1] == '/' ? 2 : 1);
    // A name of one letter (c, v, f, t, r: most tags of a sheet) is no row and has no prefix.
    if (end - name >= 2 && (name[1] == '>' || name[1] == '/' || space(name[1]))) {
      if ((name[0] == 'v' || name[0] == 'f') && name == at + 1) has_value_ = true;
      at = name + 1;
      continue;
    }
    const char* local = name;
    const char* q = name;
    for (; q < end && !space(*q) && *q != '>' && *q != '/'; ++q)
      if (*q == ':') local = q + 1;
    if (q == end) return false;
    const std::string_view l(local, static_cast<std::size_t>(q - local));
    if (l == "row") return false;
    if (name == at + 1 && (l == "v" || l == "is" || l == "f")) has_value_ = true;
    at = q;
  }
}

bool RowSkipper::run() {
  static constexpr std::string_view kEnds[] = {"", "-->", "]]>", "?>"};
  while (pos_ < buf_.size() && mode_ != Mode::pass) {
    const char* b = buf_.data();
    const std::size_t n = buf_.size();
    if (in_ == In::text && mode_ == Mode::skip && skip_tags()) continue;
    if (in_ == In::text) {
      const void* p = std::memchr(b + pos_, '<', n - pos_);
      if (p == nullptr) {
        pos_ = n;
        break;
      }
      const auto at = static_cast<std::size_t>(static_cast<const char*>(p) - b);
      std::size_t next = at;
      bool more = false;
      if (!markup(at, &next, &more)) return false;
      if (more) {
        pos_ = at;
        return flush(at);
      }
      pos_ = next;
    } else if (in_ == In::tag) {
      std::size_t i = pos_;
      for (; i < n; ++i) {
        const char c = b[i];
        if (quote_ != 0) {
          if (c == quote_) quote_ = 0;
        } else if (c == '"' || c == '\'') {
          quote_ = c;
          slash_ = false;
        } else if (c == '>') {
          break;
        } else {
          slash_ = c == '/';
        }
      }
      pos_ = i;
      if (i == n) break;
      ++pos_;
      in_ = In::text;
      if (mode_ != Mode::skip || tag_ == 0) continue;
      if (tag_ > 0 && !slash_ && ++depth_ > 100) return fail("rows nested more than 100 deep in row " + std::to_string(row_));
      if (tag_ < 0 && --depth_ == 0) {
        if (!flush(pos_)) return false;  // drops the row
        mode_ = Mode::scan;
        if (bounds_) bounds_(row_, begin_, base_ + pos_, has_value_);
        if (!skipped_(row_, has_value_)) {
          stopped_ = true;
          return false;
        }
      }
    } else {
      const std::string_view end = kEnds[static_cast<int>(in_)];
      const std::size_t found = std::string_view(buf_).find(end, pos_);
      if (found == std::string_view::npos) {
        pos_ = std::max(pos_, n - std::min(n, end.size() - 1));  // a terminator may straddle chunks
        break;
      }
      pos_ = found + end.size();
      in_ = In::text;
    }
  }
  if (mode_ == Mode::pass) return flush(buf_.size());
  return flush(pos_);
}

}  // namespace mcpread::readers::sheets
