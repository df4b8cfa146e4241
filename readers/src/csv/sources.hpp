#pragma once
// The byte sources the CSV reader reads records from. Internal to the CSV reader.
#include "csv/record_reader.hpp"
#include "file_io.hpp"
#include "mcpread/readers/charset.hpp"

#include <string>
#include <string_view>

namespace mcpread::readers::csv {

// Bytes held in memory (the head a dialect is guessed from).
class StringSource final : public ByteSource {
 public:
  explicit StringSource(std::string_view bytes) : bytes_(bytes) {}
  std::optional<std::size_t> read(char* buf, std::size_t cap) override;

 private:
  std::string_view bytes_;
};

// The file's bytes from an offset, as they are: for UTF-8 and for charsets in which the
// delimiters, quotes and line ends are the ASCII bytes (Windows code pages, Shift_JIS...).
class FileSource final : public ByteSource {
 public:
  FileSource(int fd, std::uint64_t offset) : reader_(fd, false) { reader_.seek(offset); }
  std::optional<std::size_t> read(char* buf, std::size_t cap) override { return reader_.read(buf, cap); }

 private:
  file_io::ChunkReader reader_;
};

// The file's bytes from an offset, converted to UTF-8 on the way: for UTF-16 and UTF-32, where
// a comma is two or four bytes. Offsets into it are offsets into the converted text.
class ConvertingSource final : public ByteSource {
 public:
  ConvertingSource(int fd, std::uint64_t offset, const std::string& charset)
      : reader_(fd, false), converter_(charset) {
    reader_.seek(offset);
  }
  bool ok() const { return converter_.ok(); }
  const std::string& error() const { return converter_.error(); }
  std::optional<std::size_t> read(char* buf, std::size_t cap) override;

 private:
  file_io::ChunkReader reader_;
  Utf8Converter converter_;
  std::string raw_, converted_;
  std::size_t taken_ = 0;  // bytes of converted_ already handed out
  bool done_ = false;
};

}  // namespace mcpread::readers::csv
