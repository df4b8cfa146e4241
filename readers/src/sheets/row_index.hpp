#pragma once
// Where each row of a worksheet part lies, for the parts held whole in the PartCache (at most
// 4 MiB inflated): a model pages through a sheet in several calls, and each call would otherwise
// scan every row before its page again (RowSkipper) and parse its page with libxml2's SAX parser.
// The index is made once per part with RowSkipper's scan (the same numbering, the same refusals)
// and kept beside the part; a page then starts at its first row's byte, and its rows are parsed
// in batches with pugixml (XmlFragment) into the same SheetReader. What lies outside the rows
// (the head with <dimension>, the merged cells after sheetData) is parsed once with libxml2 when
// the index is made, which refuses a DOCTYPE or malformed frame as it always did.
// Internal to the readers library.
#include "sheets/xlsx_sheet.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mcpread::readers::sheets {

struct RowIndex {
  static constexpr std::uint32_t kValue = 1u << 31;
  struct Entry {
    std::uint32_t number;  // as SheetReader numbers it, | kValue when it holds a <v>, <is> or <f>
    std::uint32_t begin;   // [begin, end): its bytes in the part, start tag to end tag
    std::uint32_t end;
  };
  std::vector<Entry> rows;             // in the part's order
  std::optional<std::string> extent;   // its <dimension>
  std::vector<std::string> merges;     // the merged ranges outside the rows
  std::size_t bytes() const;
};

// nullptr when the part is not indexed: its rows are then streamed as before (and any refusal
// comes from there). Not indexed: a part whose XML declaration names another encoding than
// UTF-8, where RowSkipper stops cutting rows (a DOCTYPE, an absurd tag) or refuses one, whose
// frame libxml2 refuses, or with a row longer than kMaxIndexedRow (parsed whole into a DOM).
constexpr std::size_t kMaxIndexedRow = 512 * 1024;
std::shared_ptr<const RowIndex> index_rows(std::string_view xml, std::string_view part);

// The rows of `xml` from `first_row` on into `reader` (as streaming the part through it would
// give them), then index.merges into *merges when the sheet was read to its end. The extent
// is set from the index. False with a sentence in *error when the rows cannot be read.
bool read_indexed(std::string_view xml, const RowIndex& index, std::string_view part, std::uint64_t first_row,
                  SheetReader& reader, std::vector<std::string>* merges, std::optional<std::string>* extent,
                  std::string* error);

}  // namespace mcpread::readers::sheets
