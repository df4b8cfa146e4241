#pragma once
// A dBASE record's values as a spreadsheet shows them (numbers as stored, dates as YYYY-MM-DD,
// logicals as TRUE/FALSE), and the memo file (.dbt of dBASE, .fpt of FoxPro) that holds the
// text of memo fields. Internal to the readers library.
#include "dbf/dbf_header.hpp"
#include "mcpread/readers/access.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace mcpread::readers::dbf {

constexpr std::size_t kMaxMemoBytes = 64 * 1024;  // of one memo shown in its cell

// What a field's bytes say, for the types whose bytes are not text (N F L D I B Y T and the
// memo references); nullopt for text fields (C V and unknown types), which the caller decodes
// from the bytes trimmed by trim_text. An empty string: no value.
std::optional<std::string> format_value(const Header& header, const Field& field, std::string_view bytes);

// A text field's bytes without the trailing spaces and NULs that pad them.
std::string_view trim_text(std::string_view bytes);

// The memo block a memo field (M G P, B of dBASE IV) points to; 0 when it has none.
std::uint64_t memo_block(const Header& header, std::string_view bytes);
bool is_memo(const Header& header, const Field& field);

// A memo file opened beside the table: `fpt` for FoxPro's layout.
class MemoFile {
 public:
  MemoFile(OpenedFile file, bool fpt, std::uint8_t table_version);
  struct Memo {
    std::string bytes;      // at most kMaxMemoBytes of it
    bool binary = false;    // a picture or an object (FoxPro), not text
    bool cut = false;       // longer than kMaxMemoBytes
    std::uint64_t size = 0; // its length when the file says it
  };
  // The memo at `block`; nullopt when the block lies outside the file.
  std::optional<Memo> read(std::uint64_t block) const;
  const std::string& name() const { return name_; }

 private:
  OpenedFile file_;
  std::uint64_t size_ = 0;
  std::uint32_t block_size_ = 512;
  bool fpt_ = false;
  bool dbase3_ = false;  // blocks end with 0x1A, no length
  std::string name_;
};

}  // namespace mcpread::readers::dbf
