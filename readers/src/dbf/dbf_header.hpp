#pragma once
// A dBASE table's header (dBASE III, IV and 5, FoxBASE+, FoxPro, Visual FoxPro: the attribute
// tables of shapefiles too): its version, record count and lengths, and its field descriptors,
// checked against each other so that a hostile header cannot make a record be read out of bounds.
// Internal to the readers library.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace mcpread::readers::dbf {

constexpr std::size_t kMaxFields = 2046;  // what a 65,535-byte header can describe

struct Field {
  std::string name;         // as stored: in the table's charset (ASCII in practice)
  char type = 'C';          // C N F L D I B Y T M G P V Q 0 ...
  std::uint32_t offset = 0; // in the record, after the deletion flag
  std::uint32_t length = 0;
  std::uint8_t decimals = 0;
};

struct Header {
  std::uint8_t version = 0;
  std::uint32_t records = 0;
  std::uint32_t header_length = 0;
  std::uint32_t record_length = 0;
  std::uint8_t code_page = 0;  // the language driver id (LDID) at byte 29; 0 when unstated
  std::vector<Field> fields;
  bool visual_foxpro() const { return version == 0x30 || version == 0x31 || version == 0x32; }
  bool foxpro() const { return visual_foxpro() || version == 0xF5 || version == 0xFB; }
  bool has_memo() const;  // the version byte says a memo file goes with it
};

// The header at the start of `bytes` (at least header_length of them for the fields to be read);
// nullopt with *error when it is not a dBASE header or describes impossible records. Only the
// fields `bytes` holds are read when `partial` (the sniffer's head).
std::optional<Header> parse_header(std::span<const unsigned char> bytes, bool partial, std::string* error);

// "dBASE III", "Visual FoxPro", ...: what the version byte names.
std::string version_name(std::uint8_t version);

// The iconv name of a language driver id's code page ("CP850"), empty when unknown or 0.
std::string code_page_charset(std::uint8_t ldid);

}  // namespace mcpread::readers::dbf
