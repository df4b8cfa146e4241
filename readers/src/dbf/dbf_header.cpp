#include "dbf/dbf_header.hpp"

#include <utility>

namespace mcpread::readers::dbf {

namespace {

std::uint32_t le16(std::span<const unsigned char> b, std::size_t at) {
  return static_cast<std::uint32_t>(b[at] | b[at + 1] << 8);
}

std::uint32_t le32(std::span<const unsigned char> b, std::size_t at) {
  return le16(b, at) | le16(b, at + 2) << 16;
}

// The field types the dBASE and FoxPro families define; a descriptor with another type byte
// means the bytes are not a dBASE header.
bool known_type(char t) {
  switch (t) {
    case 'C': case 'N': case 'F': case 'L': case 'D': case 'I': case 'B': case 'Y': case 'T':
    case 'M': case 'G': case 'P': case 'V': case 'Q': case 'W': case '0': case '@': case '+': case 'O':
      return true;
    default:
      return false;
  }
}

bool fail(std::string* error, std::string why) {
  *error = std::move(why);
  return false;
}

}  // namespace

std::string version_name(std::uint8_t version) {
  switch (version) {
    case 0x03: return "dBASE III/IV";
    case 0x83: return "dBASE III with memo";
    case 0x43: case 0x63: case 0x8E: return "dBASE IV";
    case 0x8B: case 0xCB: return "dBASE IV with memo";
    case 0x30: case 0x31: case 0x32: return "Visual FoxPro";
    case 0xF5: return "FoxPro with memo";
    case 0xFB: return "FoxBASE";
    default: return {};
  }
}

bool Header::has_memo() const {
  return version == 0x83 || version == 0x8B || version == 0xCB || version == 0xF5 || visual_foxpro();
}

std::string code_page_charset(std::uint8_t ldid) {
  // The language driver ids of the dBASE and FoxPro documentation (as GDAL and dbfread map them).
  static constexpr std::pair<std::uint8_t, const char*> kPages[] = {
      {0x01, "CP437"}, {0x02, "CP850"}, {0x03, "CP1252"}, {0x04, "MACINTOSH"}, {0x08, "CP865"},
      {0x09, "CP437"}, {0x0A, "CP850"}, {0x0B, "CP437"}, {0x0D, "CP437"}, {0x0E, "CP850"},
      {0x0F, "CP437"}, {0x10, "CP850"}, {0x11, "CP437"}, {0x12, "CP850"}, {0x13, "CP932"},
      {0x14, "CP850"}, {0x15, "CP437"}, {0x16, "CP850"}, {0x17, "CP865"}, {0x18, "CP437"},
      {0x19, "CP437"}, {0x1A, "CP850"}, {0x1B, "CP437"}, {0x1C, "CP863"}, {0x1D, "CP850"},
      {0x1F, "CP852"}, {0x22, "CP852"}, {0x23, "CP852"}, {0x24, "CP860"}, {0x25, "CP850"},
      {0x26, "CP866"}, {0x37, "CP850"}, {0x40, "CP852"}, {0x4D, "CP936"}, {0x4E, "CP949"},
      {0x4F, "CP950"}, {0x50, "CP874"}, {0x57, "CP1252"}, {0x58, "CP1252"}, {0x59, "CP1252"},
      {0x64, "CP852"}, {0x65, "CP866"}, {0x66, "CP865"}, {0x67, "CP861"}, {0x6A, "CP737"},
      {0x6B, "CP857"}, {0x78, "CP950"}, {0x79, "CP949"}, {0x7A, "CP936"}, {0x7B, "CP932"},
      {0x7C, "CP874"}, {0x7D, "CP1255"}, {0x7E, "CP1256"}, {0x96, "MAC-CYRILLIC"}, {0x97, "MAC-CENTRALEUROPE"},
      {0x98, "MACGREEK"}, {0xC8, "CP1250"}, {0xC9, "CP1251"}, {0xCA, "CP1254"}, {0xCB, "CP1253"},
      {0xCC, "CP1257"},
  };
  for (const auto& [id, name] : kPages)
    if (id == ldid) return name;
  return {};
}

std::optional<Header> parse_header(std::span<const unsigned char> b, bool partial, std::string* error) {
  Header h;
  if (b.size() < 32) return fail(error, "it is shorter than a dBASE header (32 bytes)"), std::nullopt;
  h.version = b[0];
  if (version_name(h.version).empty()) return fail(error, "its first byte is no dBASE version"), std::nullopt;
  // The date of the last update: YY MM DD (a blank date is written as zeros).
  if (b[2] > 12 || b[3] > 31 || (b[2] == 0) != (b[3] == 0))
    return fail(error, "its header holds no valid date of last update"), std::nullopt;
  h.records = le32(b, 4);
  h.header_length = le16(b, 8);
  h.record_length = le16(b, 10);
  h.code_page = b[29];
  if (b[14] > 1 || b[15] > 1) return fail(error, "its header's flags are not dBASE's"), std::nullopt;
  if (b[15] == 1) return fail(error, "the table is encrypted"), std::nullopt;
  if (h.header_length < 65 || h.record_length < 2)
    return fail(error, "its header describes no field"), std::nullopt;
  std::uint64_t used = 1;  // the deletion flag
  std::size_t at = 32;
  for (; at + 32 <= h.header_length && at < b.size() && b[at] != 0x0D; at += 32) {
    if (at + 32 > b.size()) {
      if (partial) break;
      return fail(error, "it ends inside its header"), std::nullopt;
    }
    Field f;
    std::size_t n = 0;
    while (n < 11 && b[at + n] != 0) ++n;
    for (std::size_t k = 0; k < n; ++k)
      if (b[at + k] < 0x20 || b[at + k] == 0x7F) return fail(error, "a field's name holds control bytes"), std::nullopt;
    if (n == 0) return fail(error, "a field has no name"), std::nullopt;
    f.name.assign(reinterpret_cast<const char*>(&b[at]), n);  // in the table's charset
    f.type = static_cast<char>(b[at + 11]);
    if (!known_type(f.type)) return fail(error, "a field's type is not one of dBASE's"), std::nullopt;
    f.length = b[at + 16];
    f.decimals = b[at + 17];
    f.offset = static_cast<std::uint32_t>(used);
    used += f.length;
    if (used > h.record_length) return fail(error, "its fields are longer than its records"), std::nullopt;
    if (h.fields.size() == kMaxFields) return fail(error, "it declares more fields than a header holds"), std::nullopt;
    h.fields.push_back(std::move(f));
  }
  if (h.fields.empty()) return fail(error, "its header describes no field"), std::nullopt;
  const bool ended = at < b.size() && at + 1 <= h.header_length && b[at] == 0x0D;
  if (!ended && !(partial && at + 32 > b.size())) return fail(error, "its field list has no end mark"), std::nullopt;
  return h;
}

}  // namespace mcpread::readers::dbf
