#pragma once
// The records of a delimited text file (RFC 4180 and what spreadsheets write beside it), read
// from any position where a record starts. A quoted field may hold delimiters, line breaks and
// doubled quotes; a quote inside an unquoted field is kept as it is, and text after a closing
// quote joins the field (as Python's csv and LibreOffice read such lines). Internal to the CSV
// reader.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mcpread::readers::csv {

struct Dialect {
  char delimiter = ',';
  char newline = '\n';  // '\r' for files whose lines end in a bare CR (classic Mac OS)
  bool header = false;  // the first record names the columns
};

constexpr std::size_t kMaxFields = 16384;        // fields kept of one record (as a spreadsheet's columns)
constexpr std::size_t kMaxFieldBytes = 64 << 10;  // bytes kept of one field; the rest only counted
constexpr std::size_t kMaxRecordBytes = 4 << 20;  // bytes kept of one record's fields

struct Record {
  std::vector<std::string> fields;
  std::uint64_t fields_left_out = 0;  // past kMaxFields or kMaxRecordBytes
  std::uint64_t bytes_left_out = 0;   // of fields past kMaxFieldBytes
};

// Where the bytes come from: raw from the file, or converted to UTF-8 on the way.
class ByteSource {
 public:
  virtual ~ByteSource() = default;
  // Bytes put in buf (0 at the end), or nullopt with errno set.
  virtual std::optional<std::size_t> read(char* buf, std::size_t cap) = 0;
};

class RecordReader {
 public:
  // `position`: the source's offset of its first byte (a record's start).
  RecordReader(ByteSource& source, const Dialect& dialect, std::uint64_t position);
  enum class Got { record, end, error };
  // The next record into *out (its fields in the file's bytes), or end / error (errno set).
  Got next(Record* out);
  // The same without keeping its fields: the quick way past records before a page.
  Got skip() { return next(nullptr); }
  // Where the next record starts, as an offset into the source.
  std::uint64_t position() const { return position_; }

 private:
  bool fill();  // more bytes into the buffer; false at the end or on an error (error_ set)
  void add_byte(Record* out, char c);
  void end_field(Record* out);

  ByteSource& source_;
  Dialect dialect_;
  std::unique_ptr<char[]> buffer_;
  std::size_t begin_ = 0, end_ = 0;
  std::uint64_t position_ = 0;
  bool error_ = false;
  bool at_end_ = false;
  std::string field_;
  std::size_t record_bytes_ = 0;
};

}  // namespace mcpread::readers::csv
