#include "dbf/dbf_values.hpp"

#include "file_io.hpp"

#include <cmath>
#include <cstdio>
#include <algorithm>
#include <cstring>

namespace mcpread::readers::dbf {

namespace {

std::uint32_t le32(std::string_view b, std::size_t at) {
  std::uint32_t v = 0;
  for (std::size_t k = 0; k < 4; ++k) v |= static_cast<std::uint32_t>(static_cast<unsigned char>(b[at + k])) << (8 * k);
  return v;
}

std::uint64_t le64(std::string_view b) { return le32(b, 0) | static_cast<std::uint64_t>(le32(b, 4)) << 32; }

std::uint32_t be32(const unsigned char* b) {
  return static_cast<std::uint32_t>(b[0]) << 24 | static_cast<std::uint32_t>(b[1]) << 16 |
         static_cast<std::uint32_t>(b[2]) << 8 | b[3];
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\0')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\0')) s.remove_suffix(1);
  return s;
}

bool all_digits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}

// YYYYMMDD as YYYY-MM-DD; blank or zero dates have no value.
std::string date_value(std::string_view bytes) {
  const std::string_view s = trim(bytes);
  if (s.empty() || s.find_first_not_of('0') == std::string_view::npos) return {};
  if (s.size() != 8 || !all_digits(s)) return std::string(s);
  return std::string(s.substr(0, 4)) + "-" + std::string(s.substr(4, 2)) + "-" + std::string(s.substr(6, 2));
}

// FoxPro's date-time: a Julian day number and milliseconds since midnight, little-endian.
std::string datetime_value(std::string_view bytes) {
  const auto day = static_cast<std::int64_t>(le32(bytes, 0));
  const std::uint32_t ms = le32(bytes, 4);
  if (day == 0 && ms == 0) return {};
  if (day <= 0 || day > 5373484 || ms >= 86400000u) return {};  // past 9999-12-31: not a date
  // The Julian day number to the Gregorian calendar (Fliegel and Van Flandern).
  std::int64_t l = day + 68569;
  const std::int64_t n = 4 * l / 146097;
  l -= (146097 * n + 3) / 4;
  const std::int64_t i = 4000 * (l + 1) / 1461001;
  l = l - 1461 * i / 4 + 31;
  const std::int64_t j = 80 * l / 2447;
  const std::int64_t d = l - 2447 * j / 80;
  l = j / 11;
  const std::int64_t m = j + 2 - 12 * l;
  const std::int64_t y = 100 * (n - 49) + i + l;
  const std::uint32_t s = ms / 1000;
  char out[48];
  std::snprintf(out, sizeof out, "%04lld-%02lld-%02lld %02u:%02u:%02u", static_cast<long long>(y), static_cast<long long>(m),
                static_cast<long long>(d), s / 3600, s / 60 % 60, s % 60);
  return out;
}

// Currency: a 64-bit integer of ten-thousandths.
std::string currency_value(std::string_view bytes) {
  const auto v = static_cast<std::int64_t>(le64(bytes));
  const bool negative = v < 0;
  const std::uint64_t a = negative ? 0 - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v);
  std::string out = (negative ? "-" : "") + std::to_string(a / 10000);
  std::string fraction = std::to_string(10000 + a % 10000).substr(1);
  while (!fraction.empty() && fraction.back() == '0') fraction.pop_back();
  if (!fraction.empty()) out += "." + fraction;
  return out;
}

std::string double_value(std::string_view bytes) {
  const std::uint64_t bits = le64(bytes);
  double d = 0;
  std::memcpy(&d, &bits, sizeof d);
  if (!std::isfinite(d)) return {};
  char out[40];
  std::snprintf(out, sizeof out, "%.15g", d);
  return out;
}

}  // namespace

std::string_view trim_text(std::string_view bytes) {
  while (!bytes.empty() && (bytes.back() == ' ' || bytes.back() == '\0')) bytes.remove_suffix(1);
  return bytes;
}

bool is_memo(const Header& header, const Field& field) {
  switch (field.type) {
    case 'M': case 'G': case 'P': return true;
    case 'B': return !(header.visual_foxpro() && field.length == 8);  // dBASE IV: a binary memo
    default: return false;
  }
}

std::uint64_t memo_block(const Header& header, std::string_view bytes) {
  if (header.visual_foxpro() && bytes.size() == 4) return le32(bytes, 0);  // a binary block number
  const std::string_view s = trim(bytes);  // else up to 10 ASCII digits
  if (!all_digits(s) || s.size() > 10) return 0;
  return std::stoull(std::string(s));
}

std::optional<std::string> format_value(const Header& header, const Field& field, std::string_view bytes) {
  switch (field.type) {
    case 'N': case 'F': {
      const std::string_view s = trim(bytes);
      return std::string(s == "." || s.find_first_not_of('*') == std::string_view::npos ? std::string_view() : s);
    }
    case 'L':
      if (bytes.empty()) return std::string();
      switch (bytes[0]) {
        case 'T': case 't': case 'Y': case 'y': return std::string("TRUE");
        case 'F': case 'f': case 'N': case 'n': return std::string("FALSE");
        default: return std::string();
      }
    case 'D': return date_value(bytes);
    case 'I':
      if (bytes.size() != 4) return std::string(trim(bytes));
      return std::to_string(static_cast<std::int32_t>(le32(bytes, 0)));
    case 'Y': return bytes.size() == 8 ? currency_value(bytes) : std::string(trim(bytes));
    case 'T': return bytes.size() == 8 ? datetime_value(bytes) : std::string(trim(bytes));
    case 'O': return bytes.size() == 8 ? double_value(bytes) : std::string(trim(bytes));
    case 'B':
      if (!is_memo(header, field)) return double_value(bytes);
      return std::nullopt;
    default: return std::nullopt;
  }
}

MemoFile::MemoFile(OpenedFile file, bool fpt, std::uint8_t table_version) : file_(std::move(file)), fpt_(fpt) {
  size_ = static_cast<std::uint64_t>(file_.st.st_size);
  name_ = file_.path.filename().string();
  unsigned char head[24] = {};
  const auto got = file_io::pread_full(file_.fd.get(), reinterpret_cast<char*>(head), sizeof head, 0);
  const std::size_t n = got ? *got : 0;
  if (fpt_) {
    // FoxPro: the block size, big-endian, at byte 6.
    if (n >= 8) block_size_ = static_cast<std::uint32_t>(head[6] << 8 | head[7]);
    if (block_size_ == 0) block_size_ = 1;
  } else if (table_version == 0x83) {
    dbase3_ = true;  // dBASE III: 512-byte blocks, each memo ending with 0x1A
  } else if (n >= 22) {
    block_size_ = static_cast<std::uint32_t>(head[20] | head[21] << 8);
    if (block_size_ == 0) block_size_ = 512;
  }
}

std::optional<MemoFile::Memo> MemoFile::read(std::uint64_t block) const {
  if (block == 0 || block > size_ / block_size_) return std::nullopt;
  const std::uint64_t at = block * block_size_;
  std::string buf(std::min<std::uint64_t>(size_ - at, kMaxMemoBytes + 8), '\0');
  const auto got = file_io::pread_full(file_.fd.get(), buf.data(), buf.size(), at);
  if (!got) return std::nullopt;
  buf.resize(*got);
  Memo memo;
  const auto* b = reinterpret_cast<const unsigned char*>(buf.data());
  std::uint64_t length = 0;
  std::size_t start = 0;
  if (fpt_ && buf.size() >= 8) {
    memo.binary = be32(b) != 1;  // 0: a picture, 2: an object; 1: text
    length = be32(b + 4);
    start = 8;
  } else if (!dbase3_ && buf.size() >= 8 && b[0] == 0xFF && b[1] == 0xFF && b[2] == 0x08 && b[3] == 0x00) {
    length = le32(buf, 4);  // dBASE IV: the length counts the 8 bytes of this block header
    length = length >= 8 ? length - 8 : 0;
    start = 8;
  } else {
    const std::size_t end = buf.find('\x1A');
    if (end == std::string::npos) {
      length = buf.size();
      memo.cut = buf.size() > kMaxMemoBytes;
    } else {
      length = end;
    }
  }
  if (start > buf.size()) return std::nullopt;
  memo.size = length;
  const std::size_t available = buf.size() - start;
  const std::size_t take = static_cast<std::size_t>(std::min<std::uint64_t>({length, std::uint64_t{available}, std::uint64_t{kMaxMemoBytes}}));
  memo.cut = memo.cut || length > take;
  memo.bytes = buf.substr(start, take);
  // dBASE IV writers end the text with 0x1F or 0x1A within the length they give.
  if (!fpt_ && !dbase3_ && start == 8)
    if (const std::size_t end = memo.bytes.find_first_of("\x1A\x1F"); end != std::string::npos) {
      memo.bytes.resize(end);
      memo.cut = false;
    }
  return memo;
}

}  // namespace mcpread::readers::dbf
