#pragma once
// One page of a CSV file's rows as a Markdown table, and the answer around it. Internal to the
// CSV reader.
#include "csv/record_reader.hpp"
#include "mcpread/readers/charset.hpp"
#include "mcpread/readers/hint.hpp"
#include "mcpread/readers/outcome.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mcpread::readers::csv {

// Where the page lies in the file, and what decoding it cost.
struct Paging {
  std::uint64_t first = 1;                  // the first row asked for
  std::optional<std::uint64_t> next;        // the first row left out, when rows remain
  std::optional<std::uint64_t> total;       // rows in the file, the header included, once counted
  const DetectedCharset& charset;
  std::uint64_t replaced = 0;               // U+FFFD put in by decoding
  const Wording& wording;
  std::string_view sample;                  // the file's first bytes, to suggest charsets from
};

class Table {
 public:
  Table(const Dialect& dialect, std::size_t max_output_bytes);
  void set_header(std::vector<std::string> names);
  std::uint64_t rows() const { return rows_.size(); }
  // Adds row `number` unless the page's bytes would pass the cap (false; the first row is always
  // taken, its cells cut when written).
  bool add(std::uint64_t number, std::vector<std::string> cells, std::uint64_t fields_left_out,
           std::uint64_t bytes_left_out);
  // The answer: a line about the file, the table and a footer on how to go on.
  ReadOutcome answer(const std::string& path, const Paging& paging, nlohmann::json meta);

 private:
  struct Row {
    std::uint64_t number = 0;
    std::vector<std::string> cells;
    bool cut = false;  // fields or bytes left out
  };
  std::string table(std::size_t columns);  // may shorten rows_ (given_back_)

  Dialect dialect_;
  std::size_t budget_;
  std::vector<std::string> header_;
  std::vector<Row> rows_;
  std::size_t bytes_ = 0;
  bool capped_ = false;
  std::size_t columns_shown_ = 0, columns_cut_ = 0;  // columns shown of columns_cut_, when cut
  std::optional<std::uint64_t> given_back_;  // the first row table() left out
};

}  // namespace mcpread::readers::csv
