#include "mcpread/readers/utf8.hpp"

#include "utf8_internal.hpp"

namespace mcpread::readers::utf8 {

namespace {

using detail::ascii8;
using detail::next_sequence;

const unsigned char* bytes(std::string_view s) {
  return reinterpret_cast<const unsigned char*>(s.data());
}

// Length of the valid prefix of p[0, n) (whole sequences only).
std::size_t valid_prefix(const unsigned char* p, std::size_t n) {
  std::size_t i = 0;
  while (i < n) {
    while (i + 8 <= n && ascii8(p + i)) i += 8;
    if (i >= n) break;
    if (p[i] < 0x80) {
      ++i;
      continue;
    }
    const auto seq = next_sequence(p + i, n - i);
    if (!seq.valid) return i;
    i += seq.len;
  }
  return n;
}

}  // namespace

void append_sanitized(std::string_view in, std::string& out) {
  const unsigned char* p = bytes(in);
  const std::size_t n = in.size();
  std::size_t i = 0;
  while (i < n) {
    const std::size_t good = valid_prefix(p + i, n - i);
    out.append(in.data() + i, good);
    i += good;
    if (i >= n) break;
    i += next_sequence(p + i, n - i).len;  // invalid: one U+FFFD per maximal subpart
    out.append(detail::kReplacement);
  }
}

std::string sanitized(std::string_view in) {
  std::string out;
  append_sanitized(in, out);
  return out;
}

bool is_valid(std::string_view in) { return valid_prefix(bytes(in), in.size()) == in.size(); }

std::size_t count_chars(std::string_view in) {
  const unsigned char* p = bytes(in);
  const std::size_t n = in.size();
  std::size_t count = 0;
  std::size_t i = 0;
  while (i < n) {
    if (i + 8 <= n && ascii8(p + i)) {
      count += 8;
      i += 8;
      continue;
    }
    if ((p[i] & 0xC0) != 0x80) ++count;  // every byte but continuation bytes starts a character
    ++i;
  }
  return count;
}

std::size_t count_non_blank(std::string_view in) {
  std::size_t n = 0;
  for (const char c : in) {
    const auto b = static_cast<unsigned char>(c);
    // Lead bytes and ASCII other than blanks: one per code point. (Non-ASCII blanks are rare
    // enough in page text not to move a count.)
    if ((b & 0xC0) != 0x80 && b != ' ' && b != '\n' && b != '\r' && b != '\t' && b != '\f') ++n;
  }
  return n;
}

std::size_t prefix_bytes(std::string_view in, std::size_t max_chars) {
  const unsigned char* p = bytes(in);
  const std::size_t n = in.size();
  std::size_t count = 0;
  std::size_t i = 0;
  while (i < n) {
    if (i + 8 <= n && max_chars - count >= 8 && ascii8(p + i)) {
      count += 8;
      i += 8;
      continue;
    }
    if ((p[i] & 0xC0) != 0x80) {
      if (count == max_chars) return i;
      ++count;
    }
    ++i;
  }
  return n;
}

std::size_t fit_bytes(std::string_view in, std::size_t max_bytes) {
  if (in.size() <= max_bytes) return in.size();
  std::size_t n = max_bytes;
  while (n > 0 && (static_cast<unsigned char>(in[n]) & 0xC0) == 0x80) --n;
  return n;
}

namespace detail {

SanitizeResult append_sanitized_prefix(std::string_view in, std::size_t max_chars,
                                       std::string& out) {
  const unsigned char* p = bytes(in);
  const std::size_t n = in.size();
  SanitizeResult r;
  // Most lines are ASCII and shorter than the cap: checked a word at a time (the last word
  // overlapping the one before), then appended in one go.
  if (n <= max_chars && all_ascii(p, n)) {
    out.append(in);
    r.chars = r.consumed = n;
    return r;
  }
  std::size_t i = 0;
  std::size_t run = 0;  // start of the pending run of valid bytes not yet appended
  while (i < n && r.chars < max_chars) {
    if (i + 8 <= n && max_chars - r.chars >= 8 && ascii8(p + i)) {
      i += 8;
      r.chars += 8;
      continue;
    }
    const auto seq = next_sequence(p + i, n - i);
    if (!seq.valid) {
      out.append(in.data() + run, i - run);
      out.append(kReplacement);
      ++r.replacements;
      run = i + seq.len;
    }
    i += seq.len;
    ++r.chars;
  }
  out.append(in.data() + run, i - run);
  r.consumed = i;
  return r;
}

}  // namespace detail

}  // namespace mcpread::readers::utf8
