#pragma once
// The BIFF12 records of an Excel binary workbook's parts ([MS-XLSB] 2.1.4): each a record type
// and a size, both variable-length integers of 7 bits a byte, then the size's bytes. No Debian
// library reads .xlsb, so this small parser does: it is bounded (a record's claimed size is
// checked against the bytes that follow and against a cap before anything is held) and fuzzed
// (fuzz/fuzz_xlsb.cpp). Internal to the readers library.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace mcpread::readers::sheets::xlsb {

// The record types read ([MS-XLSB] 2.3.2); every other record is skipped.
enum Record : std::uint32_t {
  kRowHdr = 0,
  kCellBlank = 1,
  kCellRk = 2,
  kCellError = 3,
  kCellBool = 4,
  kCellReal = 5,
  kCellSt = 6,
  kCellIsst = 7,
  kFmlaString = 8,
  kFmlaNum = 9,
  kFmlaBool = 10,
  kFmlaError = 11,
  kShortBlank = 12,  // the short cells (Excel 2016 on) leave out the column: the one after the last
  kShortRk = 13,
  kShortError = 14,
  kShortBool = 15,
  kShortReal = 16,
  kShortSt = 17,
  kShortIsst = 18,
  kSstItem = 19,
  kFmt = 44,
  kXf = 47,
  kCellRString = 62,
  kWsDim = 148,
  kWbProp = 153,
  kBundleSh = 156,
  kMergeCell = 176,
  kBeginCellXfs = 617,
  kEndCellXfs = 618,
};

// Feeds a part's bytes, in chunks of any size, and hands each wanted record whole to `on_record`
// (its type and body); the others are skipped without being held. A wanted record larger than
// `max_record` stops the reading with an error.
class RecordStream {
 public:
  using Wanted = std::function<bool(std::uint32_t type)>;
  using OnRecord = std::function<bool(std::uint32_t type, std::string_view body)>;  // false: stop
  RecordStream(Wanted wanted, OnRecord on_record, std::size_t max_record)
      : wanted_(std::move(wanted)), on_record_(std::move(on_record)), max_record_(max_record) {}

  // False once stopped (by the handler or an error: error() tells which).
  bool feed(std::string_view chunk);
  // The part ended: an error when it ended inside a record.
  bool finish();
  const std::string& error() const { return error_; }
  bool stopped() const { return stopped_; }

 private:
  Wanted wanted_;
  OnRecord on_record_;
  std::size_t max_record_;
  std::string pending_;        // a header or a wanted record not whole yet
  std::uint64_t skip_ = 0;     // bytes of an unwanted record still to pass
  std::optional<std::uint32_t> type_;  // the header read, its body awaited in pending_
  std::uint32_t size_ = 0;
  std::string error_;
  bool stopped_ = false;
};

// The fields of a record's body, read forward; a read past its end sets failed() and gives zeros.
class Fields {
 public:
  explicit Fields(std::string_view body) : body_(body) {}
  std::uint8_t u8();
  std::uint16_t u16();
  std::uint32_t u32();
  double f64();
  // An XLWideString: a 32-bit count of UTF-16 units and the units, as UTF-8; `nullable` for
  // XLNullableWideString, where 0xFFFFFFFF means none.
  std::string wide_string(bool nullable = false);
  void skip(std::size_t n);
  bool failed() const { return failed_; }
  std::size_t left() const { return body_.size() - at_; }

 private:
  bool take(std::size_t n);
  std::string_view body_;
  std::size_t at_ = 0;
  bool failed_ = false;
};

// An RkNumber ([MS-XLSB] 2.5.122): a 30-bit integer or the top 30 bits of a double, maybe /100.
double rk_number(std::uint32_t rk);


}  // namespace mcpread::readers::sheets::xlsb
