#include "csv/csv_reader.hpp"

#include "csv/csv_table.hpp"
#include "csv/dialect.hpp"
#include "csv/row_marks.hpp"
#include "csv/sources.hpp"
#include "file_io.hpp"
#include "mcpread/common/platform.hpp"
#include "mcpread/readers/charset.hpp"
#include "mcpread/readers/utf8.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>

namespace mcpread::readers::csv {
namespace {

constexpr std::size_t kHeadBytes = 64 << 10;
constexpr std::uint64_t kCancelEvery = 4096;  // records between looks at the cancel token


// Fields in the file's charset to UTF-8: as they are when they are UTF-8, through the charset's
// decoder otherwise (bytes it cannot decode become U+FFFD, counted).
class FieldDecoder {
 public:
  explicit FieldDecoder(const std::string& charset) {
    if (charset != "UTF-8") converter_ = std::make_unique<Utf8Converter>(charset);
  }
  bool ok() const { return !converter_ || converter_->ok(); }
  std::string error() const { return converter_ ? converter_->error() : std::string(); }
  std::string operator()(const std::string& field) {
    std::string out;
    if (!converter_) {
      if (utf8::is_valid(field)) return field;
      out = utf8::sanitized(field);
    } else {
      converter_->convert(field, out, true);
    }
    for (std::size_t at = out.find("\xEF\xBF\xBD"); at != std::string::npos; at = out.find("\xEF\xBF\xBD", at + 3))
      ++replaced_;
    return out;
  }
  std::uint64_t replaced() const { return replaced_; }

 private:
  std::unique_ptr<Utf8Converter> converter_;
  std::uint64_t replaced_ = 0;
};

std::vector<std::string> decoded(const Record& record, FieldDecoder& decode) {
  std::vector<std::string> out;
  out.reserve(record.fields.size());
  for (const std::string& f : record.fields) out.push_back(decode(f));
  return out;
}

}  // namespace

ReadOutcome read_csv(const OpenedFile& file, const CsvOptions& o, const CancelToken& cancel) {
  const std::string path = utf8::sanitized(platform::path_to_utf8(file.path));
  const auto size = static_cast<std::uint64_t>(std::max<off_t>(file.st.st_size, 0));
  nlohmann::json meta = nlohmann::json::object();
  std::string head(static_cast<std::size_t>(std::min<std::uint64_t>(kHeadBytes, size + 1)), '\0');
  const auto got = file_io::pread_full(file.fd.get(), head.data(), head.size(), 0);
  if (!got) return ReadOutcome::error("Cannot read " + path + ": " + utf8::sanitized(std::strerror(errno)) + ".");
  head.resize(*got);
  const bool whole = *got < kHeadBytes || *got > size;

  DetectedCharset cs;
  if (o.encoding.empty()) {
    cs = detect_charset(std::span(reinterpret_cast<const unsigned char*>(head.data()), head.size()));
  } else if (!charset_for_request(o.encoding, head, &cs)) {
    return ReadOutcome::error("Unknown encoding \"" + utf8::sanitized(o.encoding) + "\" for " + path +
                              ": name a charset such as utf-8, windows-1252, shift_jis or utf-16le.");
  }
  meta["charset"] = cs.name;
  // Where a delimiter is its ASCII byte the file is parsed as it is, and the starts of its
  // records can be remembered as byte offsets; UTF-16 and UTF-32 are converted first.
  const bool raw = cs.ascii_compatible;
  std::string sample = head.substr(std::min(cs.bom_bytes, head.size()));
  if (!raw) {
    Utf8Converter convert(cs.name);
    if (!convert.ok())
      return ReadOutcome::error("Cannot decode " + path + " from " + describe_charset(cs) + ": " + convert.error() + ".",
                                std::move(meta));
    std::string utf8;
    convert.convert(sample, utf8, whole);
    sample = std::move(utf8);
  }
  const Dialect dialect = detect_dialect(sample, o.extension, whole);
  meta["delimiter"] = std::string(1, dialect.delimiter);
  meta["header"] = dialect.header;

  FieldDecoder decode(raw ? cs.name : std::string("UTF-8"));
  if (!decode.ok())
    return ReadOutcome::error("Cannot decode " + path + " from " + describe_charset(cs) + ": " + decode.error() + ".",
                              std::move(meta));
  // A fresh source for each pass over the file: raw bytes from an offset, or converted from the start.
  const auto source_at = [&](std::uint64_t offset) -> std::unique_ptr<ByteSource> {
    if (raw) return std::make_unique<FileSource>(file.fd.get(), offset);
    return std::make_unique<ConvertingSource>(file.fd.get(), cs.bom_bytes, cs.name);
  };
  const std::uint64_t start = raw ? cs.bom_bytes : 0;

  Table table(dialect, o.max_output_bytes);
  Record record;
  if (dialect.header) {
    auto source = source_at(start);
    RecordReader first(*source, dialect, start);
    if (first.next(&record) == RecordReader::Got::record) table.set_header(decoded(record, decode));
  }

  // From the last remembered record start at or before the first row asked for.
  const std::string key = file_io::identity_key(file) + "|" + cs.name + "|" + dialect.delimiter + dialect.newline;
  MarkRecorder marks(raw ? RowMarksCache::find(key) : RowMarks{});
  const std::uint64_t first = std::max<std::uint64_t>(o.offset, dialect.header ? 2 : 1);
  std::uint64_t n = 1, position = start;
  if (!marks.marks().starts.empty()) {
    const std::size_t mark = static_cast<std::size_t>(
        std::min<std::uint64_t>((first - 1) / kMarkEvery, marks.marks().starts.size() - 1));
    n = mark * kMarkEvery + 1;
    position = marks.marks().starts[mark];
  }
  auto source = source_at(position);
  RecordReader reader(*source, dialect, position);
  std::optional<std::uint64_t> next;
  bool at_end = false;
  for (;; ++n) {
    if (n % kCancelEvery == 0 && cancel.cancelled()) return ReadOutcome::stopped();
    if (raw) marks.at(n, reader.position());
    const bool wanted = n >= first && !next;
    const RecordReader::Got step = wanted ? reader.next(&record) : reader.skip();
    if (step == RecordReader::Got::error)
      return ReadOutcome::error("Cannot read " + path + ": " + utf8::sanitized(std::strerror(errno)) + ".", std::move(meta));
    if (step == RecordReader::Got::end) {
      at_end = true;
      break;
    }
    if (!wanted) {
      // Past the page: counted on to the end only in files small enough to count quickly.
      if (next && size > o.count_max_bytes) break;
      continue;
    }
    if (table.rows() >= std::max<std::uint64_t>(o.limit, 1) ||
        !table.add(n, decoded(record, decode), record.fields_left_out, record.bytes_left_out))
      next = n;
  }
  if (at_end) marks.end(n - 1);
  const std::optional<std::uint64_t> total = marks.marks().records;  // counted now, or by an earlier read
  if (raw) RowMarksCache::store(key, marks.take());
  return table.answer(path, Paging{first, next, total, cs, decode.replaced(), o.wording, head}, std::move(meta));
}

}  // namespace mcpread::readers::csv
