#include "sheets/xls_formulas.hpp"

#include "byte_order.hpp"
#include "sheets/number_format.hpp"
#include "utf8_internal.hpp"

#include <cstring>
#include <optional>
#include <vector>

namespace mcpread::readers::sheets {

namespace {

enum : std::uint16_t {
  kFormula = 0x0006,
  kEof = 0x000A,
  kDateMode = 0x0022,
  kBoundSheet = 0x0085,
  kXf = 0x00E0,
  kString = 0x0207,
  kFormat = 0x041E,
  kBof = 0x0809,
};

struct Record {
  std::uint16_t type = 0;
  std::string_view data;
  std::size_t end = 0;
};

std::optional<Record> record_at(std::string_view s, std::size_t at) {
  if (at > s.size() || s.size() - at < 4) return std::nullopt;
  const std::uint16_t length = bytes::le16(s, at + 2);
  if (length > s.size() - at - 4) return std::nullopt;
  return Record{bytes::le16(s, at), s.substr(at + 4, length), at + 4 + length};
}

// A BIFF8 string's characters (8-bit ones are Latin-1, the high byte of UTF-16 units zero) as
// UTF-8; in BIFF5, bytes of the workbook's code page, taken as Latin-1 too.
std::string characters(std::string_view data, std::size_t count, bool wide) {
  std::string out;
  utf8::detail::Utf16Units units;
  for (std::size_t i = 0; i < count; ++i) {
    const std::size_t at = wide ? 2 * i : i;
    if (at + (wide ? 1 : 0) >= data.size()) break;
    units.add(wide ? static_cast<char16_t>(bytes::le16(data, at)) : static_cast<char16_t>(static_cast<unsigned char>(data[at])),
              out);
  }
  units.finish(out);
  return out;
}

// BIFF8's strings carry a flags byte after their length (bit 0: UTF-16); BIFF5's do not.
std::string biff_string(std::string_view data, std::size_t length_bytes, bool biff8) {
  if (data.size() < length_bytes) return {};
  const std::size_t count = length_bytes == 1 ? static_cast<unsigned char>(data[0]) : bytes::le16(data, 0);
  if (!biff8) return characters(data.substr(length_bytes), count, false);
  if (data.size() < length_bytes + 1) return {};
  return characters(data.substr(length_bytes + 1), count, (data[length_bytes] & 1) != 0);
}

struct Globals {
  bool biff8 = true;
  bool date1904 = false;
  std::vector<std::uint16_t> xf_formats;          // each XF's number format id
  std::map<std::uint16_t, std::string> formats;   // the workbook's own format codes
  std::vector<std::pair<std::string, std::uint32_t>> sheets;  // name, offset of its BOF
};

Globals read_globals(std::string_view s) {
  Globals g;
  for (std::size_t at = 0;;) {
    const auto r = record_at(s, at);
    if (!r || r->type == kEof) break;
    at = r->end;
    const std::string_view d = r->data;
    if (r->type == kBof && d.size() >= 2) g.biff8 = bytes::le16(d, 0) == 0x0600;
    if (r->type == kDateMode && d.size() >= 2) g.date1904 = bytes::le16(d, 0) != 0;
    if (r->type == kXf && d.size() >= 4) g.xf_formats.push_back(bytes::le16(d, 2));
    if (r->type == kFormat && d.size() >= 3) g.formats[bytes::le16(d, 0)] = biff_string(d.substr(2), g.biff8 ? 2 : 1, g.biff8);
    if (r->type == kBoundSheet && d.size() >= 7 && static_cast<unsigned char>(d[5]) == 0)  // a worksheet
      g.sheets.emplace_back(biff_string(d.substr(6), 1, g.biff8), bytes::le32(d, 0));
  }
  return g;
}

// A numeric result as its cell's format shows it: a date format's as a date, else General (as
// the cells libfreexl reads are shown).
std::string number_text(double value, std::uint16_t xf, const Globals& g) {
  if (xf < g.xf_formats.size()) {
    const std::uint16_t id = g.xf_formats[xf];
    const auto own = g.formats.find(id);
    const std::string_view code = own != g.formats.end() ? std::string_view(own->second) : builtin_format(id);
    if (!code.empty() && is_date_format(code)) return format_number(value, code, g.date1904);
  }
  return general_number(value);
}

}  // namespace

FormulaResults read_formula_results(std::string_view stream) {
  FormulaResults out;
  const Globals g = read_globals(stream);
  std::size_t kept = 0;
  for (const auto& [name, offset] : g.sheets) {
    auto& cells = out[name];
    std::optional<std::pair<std::uint32_t, std::uint16_t>> awaiting;  // a text result's cell
    for (std::size_t at = offset; kept < kMaxFormulaResults;) {
      const auto r = record_at(stream, at);
      if (!r || r->type == kEof) break;
      at = r->end;
      const std::string_view d = r->data;
      if (r->type == kString && awaiting) {
        cells[*awaiting] = biff_string(d, 2, g.biff8);
        awaiting.reset();
        continue;
      }
      awaiting.reset();
      if (r->type != kFormula || d.size() < 14) continue;
      const std::pair<std::uint32_t, std::uint16_t> cell{bytes::le16(d, 0), bytes::le16(d, 2)};
      const std::string_view result = d.substr(6, 8);
      if (bytes::le16(result, 6) != 0xFFFF) {
        double value = 0;
        std::memcpy(&value, result.data(), sizeof value);  // little-endian IEEE 754, as BIFF stores it
        cells[cell] = number_text(value, bytes::le16(d, 4), g);
      } else if (result[0] == 0) {
        awaiting = cell;  // the text follows in a STRING record
      } else if (result[0] == 1) {
        cells[cell] = result[2] != 0 ? "TRUE" : "FALSE";
      } else if (result[0] == 2) {
        cells[cell] = excel_error_text(static_cast<unsigned char>(result[2]));
      }
      ++kept;
    }
  }
  return out;
}

}  // namespace mcpread::readers::sheets
