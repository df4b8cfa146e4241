#include "msg/msg_properties.hpp"

#include "mcpread/readers/charset.hpp"

#include <algorithm>
#include <array>
#include <cstdio>

namespace mcpread::readers::msg {

namespace {

constexpr std::uint64_t kPropertiesCap = 1u << 20;  // 65,536 properties of 16 bytes

std::uint64_t le(std::string_view b, std::size_t at, std::size_t n) {
  std::uint64_t v = 0;
  for (std::size_t i = 0; i < n; ++i) v |= static_cast<std::uint64_t>(static_cast<unsigned char>(b[at + i])) << (8 * i);
  return v;
}

}  // namespace

std::string stream_name(std::uint16_t id, std::uint16_t type) {
  std::array<char, 32> name{};
  std::snprintf(name.data(), name.size(), "__substg1.0_%04X%04X", static_cast<unsigned>(id), static_cast<unsigned>(type));
  return name.data();
}

Properties::Properties(const ole2::CompoundFile& file, ole2::Path storage, std::size_t header, std::string code_page)
    : file_(file), storage_(std::move(storage)), code_page_(std::move(code_page)) {
  ole2::Path path = storage_;
  path.emplace_back("__properties_version1.0");
  std::string ignored;
  const std::optional<std::string> stream = file_.stream(path, kPropertiesCap, &ignored);
  if (!stream || stream->size() < header) return;
  // Entries of 16 bytes: the tag (type, then id), flags, then the value or, for variable-size
  // types, its size. A damaged stream's last partial entry is ignored.
  for (std::size_t at = header; at + 16 <= stream->size(); at += 16) {
    const auto tag = static_cast<std::uint32_t>(le(*stream, at, 4));
    fixed_.try_emplace(static_cast<std::uint16_t>(tag >> 16), le(*stream, at + 8, 8));
  }
}

std::optional<std::string> Properties::raw(std::uint16_t id, std::uint16_t type, std::uint64_t cap,
                                           std::string* error) const {
  ole2::Path path = storage_;
  path.push_back(stream_name(id, type));
  return file_.stream(path, cap, error);
}

std::optional<std::uint64_t> Properties::raw_size(std::uint16_t id, std::uint16_t type) const {
  ole2::Path path = storage_;
  path.push_back(stream_name(id, type));
  return file_.stream_size(path);
}

bool Properties::has_storage(std::uint16_t id, std::uint16_t type) const {
  ole2::Path path = storage_;
  path.push_back(stream_name(id, type));
  const std::vector<std::string> names = file_.names(storage_);
  if (std::find(names.begin(), names.end(), path.back()) == names.end()) return false;
  return !file_.stream_size(path);  // there, and not a stream
}

std::optional<std::string> Properties::text(std::uint16_t id, std::uint64_t cap) const {
  std::string ignored;
  if (auto wide = raw(id, kUnicode, cap, &ignored)) {
    if (wide->size() % 2 != 0) wide->pop_back();
    while (wide->size() >= 2 && (*wide)[wide->size() - 1] == '\0' && (*wide)[wide->size() - 2] == '\0')
      wide->resize(wide->size() - 2);
    return to_utf8(*wide, "UTF-16LE");
  }
  if (auto narrow = raw(id, kString8, cap, &ignored)) {
    while (!narrow->empty() && narrow->back() == '\0') narrow->pop_back();
    return to_utf8(*narrow, code_page_);
  }
  return std::nullopt;
}

std::optional<std::uint64_t> Properties::fixed(std::uint16_t id) const {
  const auto found = fixed_.find(id);
  if (found == fixed_.end()) return std::nullopt;
  return found->second;
}

std::string code_page_charset(std::uint64_t code_page) {
  std::string label;
  switch (code_page) {
    case 65001: label = "utf-8"; break;
    case 1200: label = "utf-16le"; break;
    case 20127: label = "us-ascii"; break;
    case 28591: label = "iso-8859-1"; break;
    case 932: label = "shift_jis"; break;
    case 936: label = "gbk"; break;
    case 949: label = "euc-kr"; break;
    case 950: label = "big5"; break;
    case 50220: case 50221: case 50222: label = "iso-2022-jp"; break;
    case 51932: label = "euc-jp"; break;
    case 52936: label = "hz-gb-2312"; break;
    case 54936: label = "gb18030"; break;
    case 20866: label = "koi8-r"; break;
    case 21866: label = "koi8-u"; break;
    default:
      if (code_page >= 1250 && code_page <= 1258) label = "windows-" + std::to_string(code_page);
      else if (code_page >= 28592 && code_page <= 28606) label = "iso-8859-" + std::to_string(code_page - 28590);
      else if (code_page > 0 && code_page < 100000) label = "cp" + std::to_string(code_page);
  }
  DetectedCharset cs;
  if (!label.empty() && resolve_encoding_name(label, &cs)) return cs.name;
  return "WINDOWS-1252";
}

std::string to_utf8(std::string_view bytes, const std::string& charset) {
  std::string out;
  Utf8Converter converter(charset);
  if (!converter.ok()) {
    Utf8Converter fallback("WINDOWS-1252");
    fallback.convert(bytes, out, true);
    return out;
  }
  converter.convert(bytes, out, true);
  return out;
}

std::string rfc5322_date(std::uint64_t filetime) {
  constexpr std::uint64_t kUnixEpoch = 116444736000000000ull;  // 1970-01-01 in 100 ns since 1601
  const std::int64_t seconds = static_cast<std::int64_t>(filetime / 10000000ull) -
                               static_cast<std::int64_t>(kUnixEpoch / 10000000ull);
  std::int64_t days = seconds >= 0 ? seconds / 86400 : (seconds - 86399) / 86400;
  const std::int64_t in_day = seconds - days * 86400;
  static constexpr std::array<const char*, 7> kWeekdays = {"Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"};
  const char* weekday = kWeekdays[static_cast<std::size_t>(((days % 7) + 7) % 7)];
  // Civil date from days since 1970-01-01 (H. Hinnant's algorithm).
  days += 719468;
  const std::int64_t era = (days >= 0 ? days : days - 146096) / 146097;
  const std::int64_t doe = days - era * 146097;
  const std::int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const std::int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const std::int64_t mp = (5 * doy + 2) / 153;
  const std::int64_t day = doy - (153 * mp + 2) / 5 + 1;
  const std::int64_t month = mp < 10 ? mp + 3 : mp - 9;
  const std::int64_t year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  static constexpr std::array<const char*, 12> kMonths = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                                          "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  std::array<char, 64> out{};
  std::snprintf(out.data(), out.size(), "%s, %02d %s %04lld %02d:%02d:%02d +0000", weekday, static_cast<int>(day),
                kMonths[static_cast<std::size_t>(month - 1)], static_cast<long long>(year),
                static_cast<int>(in_day / 3600), static_cast<int>(in_day / 60 % 60), static_cast<int>(in_day % 60));
  return out.data();
}

}  // namespace mcpread::readers::msg
