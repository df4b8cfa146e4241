#include "mcpread/protocol/json_writer.hpp"

#include "mcpread/common/utf8_sequence.hpp"

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

// The first byte at or after i that needs attention (see care_mask), or n. SSE2 (part of every
// x86-64) looks at 16 bytes per step: a signed compare below 0x20 catches the control
// characters and, being signed, every byte of 0x80 and above; elsewhere 8-byte words do.
std::size_t next_care(const unsigned char* p, std::size_t i, std::size_t n) {
#if defined(__SSE2__)
  const __m128i space = _mm_set1_epi8(0x20), quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\');
  for (; i + 16 <= n; i += 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i));
    const __m128i hit = _mm_or_si128(_mm_cmplt_epi8(v, space),
                                     _mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash)));
    if (const int mask = _mm_movemask_epi8(hit); mask != 0)
      return i + static_cast<std::size_t>(__builtin_ctz(static_cast<unsigned>(mask)));
  }
#endif
  for (; i + 8 <= n; i += 8) {
    std::uint64_t w;
    std::memcpy(&w, p + i, 8);
    if (const std::uint64_t m = care_mask(w); m != 0) return i + static_cast<std::size_t>(__builtin_ctzll(m)) / 8;
  }
  for (; i < n; ++i)
    if (p[i] < 0x20 || p[i] >= 0x80 || p[i] == '"' || p[i] == '\\') return i;
  return n;
}

void append_escape(unsigned char c, std::string& out) {
  switch (c) {
    case '"': out += "\\\""; return;
    case '\\': out += "\\\\"; return;
    case '\b': out += "\\b"; return;
    case '\f': out += "\\f"; return;
    case '\n': out += "\\n"; return;
    case '\r': out += "\\r"; return;
    case '\t': out += "\\t"; return;
    default: {
      static constexpr char hex[] = "0123456789abcdef";
      const char u[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 0xF]};
      out.append(u, 6);
    }
  }
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
  out.reserve(out.size() + n + n / 16 + 3);  // room for escapes, quotes and a newline
  out.push_back('"');
  std::size_t i = 0;
  std::size_t run = 0;  // start of bytes not yet copied
  while (i < n) {
    i = next_care(p, i, n);
    if (i >= n) break;
    const unsigned char c = p[i];
    if (c >= 0x80) {
      if (const auto seq = common::utf8::next_sequence(p + i, n - i); seq.valid) {
        i += seq.len;
        continue;
      }
      out.append(text.data() + run, i - run);
      out += "\xEF\xBF\xBD";  // U+FFFD for the invalid byte
      run = ++i;
      continue;
    }
    out.append(text.data() + run, i - run);
    append_escape(c, out);
    run = ++i;
  }
  out.append(text.data() + run, n - run);
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
