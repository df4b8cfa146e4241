#include "xls_fixtures.hpp"

#include "doc_fixtures.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace mcpread::test {
namespace {

void put16(std::string& s, std::uint32_t v) {
  s += static_cast<char>(v & 0xFF);
  s += static_cast<char>((v >> 8) & 0xFF);
}
void put32(std::string& s, std::uint32_t v) {
  put16(s, v & 0xFFFF);
  put16(s, v >> 16);
}
void set32(std::string& s, std::size_t at, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) s[at + static_cast<std::size_t>(i)] = static_cast<char>((v >> (8 * i)) & 0xFF);
}

std::string record(std::uint16_t type, const std::string& body) {
  std::string r;
  put16(r, type);
  put16(r, static_cast<std::uint32_t>(body.size()));
  return r + body;
}

std::string bof(std::uint16_t kind) {
  std::string b;
  put16(b, 0x0600);  // BIFF8
  put16(b, kind);    // 5: workbook globals, 0x10: worksheet
  put16(b, 0x0DBB);
  put16(b, 0x07CC);
  put32(b, 0);
  put32(b, 0x06);
  return record(0x0809, b);
}

std::string xf(std::uint16_t format) {
  std::string b;
  put16(b, 0);  // font
  put16(b, format);
  b.append(16, '\0');
  return record(0x00E0, b);
}


}  // namespace

std::string biff8_stream(const std::vector<XlsSheet>& sheets, const XlsOptions& options) {
  std::vector<std::string> strings;
  auto string_index = [&](const std::string& s) {
    const auto at = std::find(strings.begin(), strings.end(), s);
    if (at != strings.end()) return static_cast<std::uint32_t>(at - strings.begin());
    strings.push_back(s);
    return static_cast<std::uint32_t>(strings.size() - 1);
  };
  std::vector<std::string> bodies;
  for (const XlsSheet& sheet : sheets) {
    std::uint32_t rows = 0;
    std::uint16_t columns = 0;
    for (const XlsCell& c : sheet.cells) {
      rows = std::max<std::uint32_t>(rows, c.row + 1u);
      columns = std::max<std::uint16_t>(columns, static_cast<std::uint16_t>(c.column + 1));
    }
    std::string dims;
    put32(dims, 0);
    put32(dims, sheet.declared_rows != 0 ? sheet.declared_rows : rows);
    put16(dims, 0);
    put16(dims, sheet.declared_columns != 0 ? sheet.declared_columns : columns);
    put16(dims, 0);
    std::string body = bof(0x10) + record(0x0200, dims);
    for (const XlsCell& c : sheet.cells) {
      std::string cell;
      put16(cell, c.row);
      put16(cell, c.column);
      if (c.formula != XlsCell::Formula::none) {
        put16(cell, c.format);
        std::string result(8, '\0');  // the number, or a type byte, a value byte and 0xFFFF
        if (c.formula == XlsCell::Formula::number) {
          std::memcpy(result.data(), &c.number, 8);
        } else {
          result[0] = c.formula == XlsCell::Formula::text ? 0 : c.formula == XlsCell::Formula::boolean ? 1 : 2;
          result[2] = static_cast<char>(c.code);
          result[6] = result[7] = '\xFF';
        }
        cell += result;
        put16(cell, 0);                      // grbit
        put32(cell, 0);                      // chn
        put16(cell, 3);                      // the parsed formula: 3 bytes
        cell += std::string("\x1E\x01\x00", 3);  // ptgInt 1
        body += record(0x0006, cell);
        if (c.formula == XlsCell::Formula::text) {
          std::string text;
          put16(text, static_cast<std::uint32_t>(c.text.size()));
          text += '\0';  // 8-bit characters
          text += c.text;
          body += record(0x0207, text);
        }
      } else if (c.is_number) {
        put16(cell, c.format);
        char raw[8];
        std::memcpy(raw, &c.number, 8);  // little-endian IEEE 754, as BIFF stores it
        cell.append(raw, 8);
        body += record(0x0203, cell);
      } else {
        put16(cell, 0);
        put32(cell, string_index(c.text));
        body += record(0x00FD, cell);
      }
    }
    bodies.push_back(body + record(0x000A, {}));
  }

  std::string globals = bof(0x05);
  if (options.encrypted) {
    std::string pass;
    put16(pass, 1);  // RC4
    pass.append(52, '\x5A');
    globals += record(0x002F, pass);
  }
  std::string codepage;
  put16(codepage, 1200);
  globals += record(0x0042, codepage);
  std::string mode;
  put16(mode, options.date1904 ? 1 : 0);
  globals += record(0x0022, mode);
  globals += xf(0) + xf(14) + xf(22) + xf(21);
  std::vector<std::size_t> offsets;  // where each BOUNDSHEET's stream position goes
  for (const XlsSheet& sheet : sheets) {
    std::string b(4, '\0');
    b += '\0';  // visible
    b += '\0';  // worksheet
    b += static_cast<char>(sheet.name.size());
    b += '\0';  // 8-bit characters
    b += sheet.name;
    offsets.push_back(globals.size() + 4);
    globals += record(0x0085, b);
  }
  std::string sst;
  put32(sst, static_cast<std::uint32_t>(strings.size()));
  put32(sst, static_cast<std::uint32_t>(strings.size()));
  for (const std::string& s : strings) {
    put16(sst, static_cast<std::uint32_t>(s.size()));
    sst += '\0';
    sst += s;
  }
  if (sst.size() > 8224) throw std::length_error("the fixture's strings pass one SST record");
  globals += record(0x00FC, sst) + record(0x000A, {});
  std::size_t at = globals.size();
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    set32(globals, offsets[i], static_cast<std::uint32_t>(at));
    at += bodies[i].size();
  }
  std::string out = globals;
  for (const std::string& b : bodies) out += b;
  return out;
}

std::string compound_file(const std::string& stream, const std::string& name) {
  // doc_fixtures' writer: every stream in the regular FAT, padded past the mini stream's 4 KiB
  // (libfreexl reads the zeros after the last EOF record as empty records).
  return compound_file({{std::u16string(name.begin(), name.end()), stream}});
}

std::string xls_bytes(const std::vector<XlsSheet>& sheets, const XlsOptions& options) {
  return compound_file(biff8_stream(sheets, options), options.stream);
}

}  // namespace mcpread::test
