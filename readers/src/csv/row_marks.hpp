#pragma once
// Where the records of recently read CSV files start, so that paging deep into a large file
// (offset=900000 of a 1 GB export) does not parse everything before it again on each call: the
// start of every kMarkEvery-th record, and the record count once a read reached the end. Kept by
// the file's identity and version and by how it was parsed (charset, delimiter, line end); bounded;
// dropped by the idle release. Internal to the CSV reader.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mcpread::readers::csv {

constexpr std::uint64_t kMarkEvery = 4096;

struct RowMarks {
  // starts[i]: the byte offset of record i * kMarkEvery + 1 (starts[0]: the first record's).
  std::vector<std::uint64_t> starts;
  std::optional<std::uint64_t> records;  // how many the file holds, once counted
};

// Records the positions a read passes in order: record number `n` starts at `offset`.
class MarkRecorder {
 public:
  explicit MarkRecorder(RowMarks marks) : marks_(std::move(marks)) {}
  void at(std::uint64_t n, std::uint64_t offset) {
    if ((n - 1) % kMarkEvery == 0 && (n - 1) / kMarkEvery == marks_.starts.size()) marks_.starts.push_back(offset);
  }
  void end(std::uint64_t records) { marks_.records = records; }
  const RowMarks& marks() const { return marks_; }
  RowMarks take() { return std::move(marks_); }

 private:
  RowMarks marks_;
};

class RowMarksCache {
 public:
  // The marks known under `key` (none when none).
  static RowMarks find(const std::string& key);
  // Keeps what is known: the longer list of starts, and the count once known.
  static void store(const std::string& key, RowMarks marks);
  // Drops all; the bytes they held.
  static std::size_t release();
};

}  // namespace mcpread::readers::csv
