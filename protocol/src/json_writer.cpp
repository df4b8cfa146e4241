#include "mcpread/protocol/json_writer.hpp"

#include "mcpread/common/utf8_sequence.hpp"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <bit>
#include <cstring>

#include <nettle/base64.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace mcpread::protocol {
namespace {

static_assert(std::endian::native == std::endian::little, "the byte masks assume little-endian words");

constexpr std::uint64_t ones = 0x0101010101010101ull;
constexpr std::uint64_t highs = 0x8080808080808080ull;

constexpr std::uint64_t has_zero_byte(std::uint64_t w) { return (w - ones) & ~w & highs; }

// A mask whose lowest set bit marks the first of the 8 bytes (little-endian) that needs
// attention: a control character, '"', '\\', or a non-ASCII byte (whose UTF-8 must be checked).
// Bits above the lowest may be spurious (borrows), so only the lowest is used.
constexpr std::uint64_t care_mask(std::uint64_t w) {
  return (w | ((w - ones * 0x20) & ~w) | has_zero_byte(w ^ (ones * '"')) |
          has_zero_byte(w ^ (ones * '\\'))) &
         highs;
}

// A JSON string is written straight into the std::string's own buffer. The text is copied as
// it is scanned, a block of 16 (SSE2, part of every x86-64) or 8 bytes at a time, the whole
// block stored before its bytes are looked at: a byte that needs attention (see care_mask)
// stops the block there, and the bytes stored past it are overwritten next. Every byte is read
// once and written once, and an escape (a read's answer has a tab and a newline on every line)
// costs no call. The string is lengthened a window at a time, because std::string zeroes what
// it grows by: zeroing the whole text ahead (a memset of tens of kilobytes) cost a third as
// much as the copy.
constexpr std::size_t kWindow = 1024;
// Writable bytes kept ahead of the cursor before each step: a block stored whole, or the bytes
// before a byte that needs attention (at most 15) and its escape (at most 6).
constexpr std::size_t kSlack = 16 + 6 + 1;

#if defined(__SSE2__)
constexpr std::size_t kBlock = 16;
// Stores the 16 bytes at p to d; returns how many come before the first that needs attention
// (16 when none does). A signed compare below 0x20 catches the control characters and, being
// signed, every byte of 0x80 and above.
inline std::size_t store_block(const unsigned char* p, char* d) {
  const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  _mm_storeu_si128(reinterpret_cast<__m128i*>(d), v);
  const __m128i hit =
      _mm_or_si128(_mm_cmplt_epi8(v, _mm_set1_epi8(0x20)),
                   _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'))));
  const auto mask = static_cast<unsigned>(_mm_movemask_epi8(hit));
  return mask == 0 ? kBlock : static_cast<std::size_t>(__builtin_ctz(mask));
}
#else
constexpr std::size_t kBlock = 8;
inline std::size_t store_block(const unsigned char* p, char* d) {
  std::uint64_t w;
  std::memcpy(&w, p, 8);
  std::memcpy(d, &w, 8);
  const std::uint64_t m = care_mask(w);
  return m == 0 ? kBlock : static_cast<std::size_t>(__builtin_ctzll(m)) / 8;
}
#endif

// The escape of c (a control character, '"' or '\\') written at d; d advances past it.
inline void write_escape(unsigned char c, char*& d) {
  char second = 0;
  switch (c) {
    case '"': second = '"'; break;
    case '\\': second = '\\'; break;
    case '\b': second = 'b'; break;
    case '\f': second = 'f'; break;
    case '\n': second = 'n'; break;
    case '\r': second = 'r'; break;
    case '\t': second = 't'; break;
    default: {
      static constexpr char hex[] = "0123456789abcdef";
      const char u[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 0xF]};
      std::memcpy(d, u, 6);
      d += 6;
      return;
    }
  }
  d[0] = '\\';
  d[1] = second;
  d += 2;
}

void append_number(const nlohmann::json& v, std::string& out) {
  char buf[24];
  std::to_chars_result r{};
  if (v.is_number_unsigned())
    r = std::to_chars(buf, buf + sizeof buf, v.get<std::uint64_t>());
  else
    r = std::to_chars(buf, buf + sizeof buf, v.get<std::int64_t>());
  out.append(buf, r.ptr);
}

// The binary's base64, between quotes, encoded in place at the end of `out` (nettle's encoder:
// about 1.8 GB/s here). The room is made first, so the encoder writes into the message itself.
void append_base64_string(const nlohmann::json::binary_t& bytes, std::string& out) {
  const std::size_t at = out.size();
  const std::size_t digits = BASE64_ENCODE_RAW_LENGTH(bytes.size());
  out.resize(at + digits + 2);
  char* p = out.data() + at;
  *p++ = '"';
  base64_encode_raw(p, bytes.size(), bytes.data());
  p[digits] = '"';
}

}  // namespace

std::size_t wire_size_hint(const nlohmann::json& value) {
  switch (value.type()) {
    case nlohmann::json::value_t::binary:
      return BASE64_ENCODE_RAW_LENGTH(value.get_binary().size()) + 2;
    case nlohmann::json::value_t::string:
      return value.get_ref<const std::string&>().size() + 2;
    case nlohmann::json::value_t::object: {
      std::size_t n = 2;
      for (const auto& [key, item] : value.items()) n += key.size() + 4 + wire_size_hint(item);
      return n;
    }
    case nlohmann::json::value_t::array: {
      std::size_t n = 2;
      for (const auto& item : value) n += 1 + wire_size_hint(item);
      return n;
    }
    default:
      return 24;  // numbers, literals
  }
}

void append_json_string(std::string_view text, std::string& out) {
  const auto* p = reinterpret_cast<const unsigned char*>(text.data());
  const std::size_t n = text.size();
  // serialize() reserved the message from a size hint; a string written elsewhere gets its
  // capacity here, with room for some escapes, rather than by doublings.
  if (out.capacity() < out.size() + n + 2 + kSlack) out.reserve(out.size() + n + n / 16 + 2 + kSlack);
  out.push_back('"');
  char* d = out.data() + out.size();
  char* end = d;
  std::size_t i = 0;
  while (i < n) {
    if (static_cast<std::size_t>(end - d) < kSlack) {
      const auto at = static_cast<std::size_t>(d - out.data());
      out.resize(at + kSlack + std::min(n - i, kWindow));
      d = out.data() + at;
      end = out.data() + out.size();
    }
    if (n - i >= kBlock) {
      // As many blocks as the input and the room allow, the room checked once: a block that
      // stops at byte k leaves d + k + 6 within the slack.
      std::size_t blocks = std::min((n - i) / kBlock, (static_cast<std::size_t>(end - d) - kSlack) / kBlock + 1);
      std::size_t k = kBlock;
      while (blocks-- > 0 && (k = store_block(p + i, d)) == kBlock) {
        i += kBlock;
        d += kBlock;
      }
      if (k == kBlock) continue;
      i += k;
      d += k;
    }
    const unsigned char c = p[i];
    if (c >= 0x80) {
      // A run of non-ASCII characters (text in most scripts) is checked and copied here, one
      // sequence (at most 4 bytes out) after another, not a block attempt per character.
      do {
        if (const auto seq = common::utf8::next_sequence(p + i, n - i); seq.valid) {
          if (n - i >= 4) {  // 4 bytes stored, seq.len of them kept
            std::memcpy(d, p + i, 4);
            d += seq.len;
            i += seq.len;
          } else {
            for (const std::size_t seq_end = i + seq.len; i < seq_end;) *d++ = static_cast<char>(p[i++]);
          }
        } else {
          std::memcpy(d, "\xEF\xBF\xBD", 3);  // U+FFFD for the invalid byte
          d += 3;
          ++i;
        }
      } while (i < n && p[i] >= 0x80 && end - d >= 4);
    } else if (c < 0x20 || c == '"' || c == '\\') {
      write_escape(c, d);
      ++i;
    } else {  // the last bytes, fewer than a block
      *d++ = static_cast<char>(c);
      ++i;
    }
  }
  out.resize(static_cast<std::size_t>(d - out.data()));
  out.push_back('"');
}

void append_json(const nlohmann::json& value, std::string& out) {
  switch (value.type()) {
    case nlohmann::json::value_t::object: {
      out.push_back('{');
      bool first = true;
      for (const auto& [key, item] : value.items()) {
        if (!first) out.push_back(',');
        first = false;
        append_json_string(key, out);
        out.push_back(':');
        append_json(item, out);
      }
      out.push_back('}');
      return;
    }
    case nlohmann::json::value_t::array: {
      out.push_back('[');
      bool first = true;
      for (const auto& item : value) {
        if (!first) out.push_back(',');
        first = false;
        append_json(item, out);
      }
      out.push_back(']');
      return;
    }
    case nlohmann::json::value_t::string:
      append_json_string(value.get_ref<const std::string&>(), out);
      return;
    case nlohmann::json::value_t::boolean:
      out += value.get<bool>() ? "true" : "false";
      return;
    case nlohmann::json::value_t::number_integer:
    case nlohmann::json::value_t::number_unsigned:
      append_number(value, out);
      return;
    case nlohmann::json::value_t::null:
      out += "null";
      return;
    case nlohmann::json::value_t::binary:
      append_base64_string(value.get_binary(), out);
      return;
    default:  // floats (shortest round-trip form), discarded: nlohmann knows best
      out += value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
      return;
  }
}

}  // namespace mcpread::protocol
