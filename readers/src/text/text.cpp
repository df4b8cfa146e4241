#include "mcpread/common/compat.hpp"
#include "mcpread/readers/hint.hpp"
#include "mcpread/readers/text.hpp"

#include "file_io.hpp"
#include "json_pretty.hpp"
#include "line_index.hpp"
#include "line_scanner.hpp"
#include "text_formatter.hpp"
#include "mcpread/readers/charset.hpp"
#include "mcpread/readers/utf8.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <limits>
#include <memory>
#include <optional>
#include <span>

namespace mcpread::readers {

namespace {

constexpr std::size_t kChunkBytes = 1u << 20;
constexpr std::size_t kSampleBytes = 64u << 10;
// A chunk is read a piece at a time, and no further than the window needs: a 2,000-line read of
// a 300 KB file used to copy the whole file out of the page cache (and ask for more at its end)
// for the first 90 KB. The first piece of the file is the charset's sample; after it, pieces
// start small and double, so that a window ending soon after costs little copying and a long
// count few calls.
constexpr std::size_t kFirstPieceBytes = 32u << 10;
constexpr std::size_t kMaxPieceBytes = 256u << 10;
static_assert(kChunkBytes % kMaxPieceBytes == 0 && kSampleBytes <= kChunkBytes);

std::string n2s(std::uint64_t v) { return std::to_string(v); }

std::string iso_mtime(const struct stat& st) {
  std::tm tm{};
  const time_t secs = st.st_mtime;
  if (gmtime_r(&secs, &tm) == nullptr) return {};
  char buf[32];
  const std::size_t n = std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return std::string(buf, n);
}

using text_detail::Formatter;
using text_detail::Mode;

std::string accepted_encodings() {
  return "UTF-8, UTF-16LE, UTF-16BE, UTF-32LE, WINDOWS-1252, ISO-8859-1, SHIFT_JIS, EUC-JP, "
         "GB18030, GBK, BIG5, EUC-KR, KOI8-R";
}

}  // namespace

ReadOutcome read_text(const OpenedFile& file, const TextOptions& options, const CancelToken& cancel) {
  const std::string path = utf8::sanitized(file.path.string());
  if (cancel.cancelled()) return ReadOutcome::stopped();
  const int fd = file.fd.get();
#if defined(POSIX_FADV_SEQUENTIAL)
  ::posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
#endif

  // One chunk buffer per worker thread, reused: a fresh megabyte per call costs an mmap, page
  // faults on every page touched, and an munmap.
  thread_local const auto buffer = compat::make_char_buffer(kChunkBytes);
  file_io::ChunkReader reader(fd, options.nowait);
  auto read_error = [&] {
    if (options.nowait && (errno == EAGAIN || errno == EOPNOTSUPP)) return ReadOutcome::waits();
    return ReadOutcome::error("Could not read " + path + ": " + utf8::sanitized(std::strerror(errno)) + ".");
  };
  const auto got = reader.read(buffer.get(), kSampleBytes);
  if (!got) return read_error();
  std::string_view chunk(buffer.get(), *got);

  const std::string_view sample = chunk.substr(0, kSampleBytes);
  const auto identity = file_io::identity(file);
  // What earlier reads of this version of the file learnt (its charset, where its lines are).
  text_detail::LineIndex index;
  if (!options.json) index = text_detail::LineIndexCache::instance().find(identity);
  bool charset_learnt = false;
  DetectedCharset cs;
  if (options.json) {
    cs = named_charset("UTF-8");  // JSON text is UTF-8; the parser skips a byte-order mark
  } else if (options.encoding.empty()) {
    if (index.charset) {
      cs = *index.charset;
    } else {
      cs = detect_charset(std::span(reinterpret_cast<const unsigned char*>(sample.data()), sample.size()));
      index.charset = cs;
      charset_learnt = true;
    }
  } else if (!charset_for_request(options.encoding, sample, &cs)) {
    return ReadOutcome::error("Unknown encoding \"" + utf8::sanitized(options.encoding) + "\" for " + path +
                              ". Use a name iconv knows, for example " + accepted_encodings() +
                              "; or omit encoding to detect it.");
  }
  if (cs.name != "UTF-8") {
    if (Utf8Converter probe(cs.name); !probe.ok())
      return ReadOutcome::error("Cannot decode " + path + " as " + cs.name + ": " + probe.error());
  }
  const bool is_utf8 = cs.name == "UTF-8";
  const std::uint64_t column = options.column == 0 ? 1 : options.column;
  // A column inside a line needs the line's characters counted from its start, which per-line
  // decoding cannot do for bytes it does not keep: the whole stream is decoded instead.
  const Mode mode = is_utf8                                ? Mode::Utf8
                    : cs.ascii_compatible && column == 1 ? Mode::PerLine
                                                           : Mode::Stream;
  const std::uint64_t offset = options.offset == 0 ? 1 : options.offset;
  const auto size = static_cast<std::uint64_t>(file.st.st_size);

  ReadOutcome outcome;
  auto& meta = outcome.meta;
  meta["path"] = path;
  meta["size"] = size;
  meta["mtime"] = iso_mtime(file.st);
  meta["charset"] = cs.name;
  if (!cs.label.empty()) meta["charset_label"] = cs.label;
  meta["bom"] = cs.bom_bytes > 0;

  TextOptions shown_options = options;
  shown_options.column = column;
  Formatter fmt(mode, cs.name, shown_options);
  text_detail::LineScanner::Config config;
  config.first = offset;
  config.limit = options.limit;
  // Room for max_line_chars+1 characters of up to 4 bytes, enough to see that a line is too long.
  const std::size_t huge = std::numeric_limits<std::size_t>::max() / 8;
  config.keep_bytes =
      options.max_line_chars < huge ? 4 * (options.max_line_chars + 1) : options.max_line_chars;
  // Lines are found in raw bytes unless the charset is converted as a stream; only then can
  // chunk boundaries be mapped to line counts and remembered for the next read.
  const bool indexable = mode != Mode::Stream && !options.json;
  if (!indexable) {  // only the charset applies
    index.chunks.clear();
    index.total_lines.reset();
  }
  // The lines after the window are counted once per version of the file: a later read of it
  // (an agent paging on, or reading it again) takes the total from the index.
  config.count_rest = size <= options.count_lines_max_bytes && !index.total_lines;
  config.skip_chars = column - 1;
  config.count_chars = mode != Mode::PerLine;
  // A line no longer than this is shown whole: its character count is never needed.
  config.count_chars_over = std::min<std::uint64_t>(options.max_line_chars, config.keep_bytes);
  text_detail::LineScanner scanner(
      config, [&](const text_detail::LineScanner::Line& line) { return fmt.line(line); });

  std::unique_ptr<Utf8Converter> stream;
  std::string converted;
  if (mode == Mode::Stream) stream = std::make_unique<Utf8Converter>(cs.name);
  auto feed = [&](std::string_view data, bool last) {
    if (!stream) {
      scanner.feed(data);
      return;
    }
    converted.clear();
    stream->convert(data, converted, last);
    scanner.feed(converted);
  };

  if (index.chunks.empty()) index.chunks.push_back({});
  const std::size_t known_chunks = index.chunks.size();
  auto remember = [&](std::size_t next_chunk, std::size_t chunk_bytes) {
    if (indexable && !scanner.done() && chunk_bytes == kChunkBytes && index.chunks.size() == next_chunk)
      index.chunks.push_back({scanner.completed(), scanner.in_line()});
  };

  std::uint64_t content_bytes = chunk.size() > cs.bom_bytes ? chunk.size() - cs.bom_bytes : 0;
  // Reads on in the current chunk, `chunk_bytes` of it in the buffer, while the scanner wants more.
  auto read_on = [&](std::size_t& chunk_bytes) {
    for (std::size_t want = kFirstPieceBytes; chunk_bytes < kChunkBytes && !scanner.done() && !reader.eof();
         want = std::min(2 * want, kMaxPieceBytes)) {
      const auto piece = reader.read(buffer.get() + chunk_bytes, std::min(want, kChunkBytes - chunk_bytes));
      if (!piece) return false;
      feed(std::string_view(buffer.get() + chunk_bytes, *piece), false);
      content_bytes += *piece;
      chunk_bytes += *piece;
    }
    return true;
  };
  std::size_t chunk_no = indexable ? text_detail::start_chunk(index, offset) : 0;
  if (options.json) {
    if (content_bytes > 0) {
      if (auto failed = text_detail::read_json_lines(file, offset, options, scanner, cancel)) {
        failed->meta = std::move(meta);
        return std::move(*failed);
      }
    }
  } else if (chunk_no > 0) {  // jump over what an earlier read already counted
    const auto& at = index.chunks[chunk_no];
    scanner.resume(at.newlines_before, at.mid_line);
    reader.seek(static_cast<std::uint64_t>(chunk_no) * kChunkBytes);
    --chunk_no;  // the loop below reads chunk `chunk_no + 1` first
  } else {
    feed(chunk.substr(std::min(cs.bom_bytes, chunk.size())), false);
    std::size_t chunk_bytes = chunk.size();
    if (!read_on(chunk_bytes)) return read_error();
    remember(1, chunk_bytes);
  }
  while (!options.json && !scanner.done() && !reader.eof()) {
    if (cancel.cancelled()) return ReadOutcome::stopped();
    ++chunk_no;
    std::size_t chunk_bytes = 0;
    if (!read_on(chunk_bytes)) return read_error();
    remember(chunk_no + 1, chunk_bytes);
  }
  if (!scanner.done()) {
    feed({}, true);
    scanner.finish();
  }
  if (scanner.reached_eof()) index.total_lines = scanner.total_lines();
  if (indexable && (index.chunks.size() > known_chunks || scanner.reached_eof()))
    text_detail::LineIndexCache::instance().store(identity, index);
  else if (charset_learnt)
    text_detail::LineIndexCache::instance().store(identity, text_detail::LineIndex{{}, std::nullopt, index.charset});

  if (content_bytes == 0) {
    meta["total_lines"] = 0;
    meta["start_line"] = 0;
    meta["end_line"] = 0;
    meta["truncated"] = false;
    meta["long_lines_cut"] = 0;
    const std::string note =
        cs.bom_bytes == 0 ? "[The file is empty (" + n2s(size) + " bytes).]"
                          : "[The file holds no text, only a " + cs.name + " byte-order mark (" +
                                n2s(cs.bom_bytes) + " bytes).]";
    outcome.blocks.emplace_back(TextBlock{note});
    return outcome;
  }

  // The total is known when this read reached the end, or an earlier one of this version did.
  const bool counted = scanner.reached_eof() || index.total_lines.has_value();
  const std::uint64_t total = scanner.reached_eof() ? scanner.total_lines() : index.total_lines.value_or(0);
  if (counted) meta["total_lines"] = total;
  if (scanner.shown() == 0) {
    ReadOutcome err = ReadOutcome::error(
        "Offset " + n2s(offset) + " is past the end of " + path +
        (options.json ? ": the pretty-printed JSON has " : ": the file has ") + n2s(total) +
        (total == 1 ? " line" : " lines") + ". Use an offset from 1 to " + n2s(total) + ".");
    err.meta = std::move(meta);
    return err;
  }

  const std::uint64_t s = offset;
  const std::uint64_t e = scanner.last_shown();
  const bool more = scanner.more();
  const std::string range = n2s(s) + "-" + n2s(e);
  const std::string next = "To read more, " + options.wording.say({.offset = e + 1}, HintForm::call_again) + ".";
  std::string footer;
  if (!more) {
    footer = "[Lines " + range + " of " + n2s(total) + ". End of file.]";
  } else if (scanner.refused()) {
    footer = "[Output capped at " + n2s(options.max_output_bytes) + " bytes: lines " + range +
             (counted ? " of " + n2s(total) : std::string()) + " shown. " + next + "]";
  } else if (counted) {
    footer = "[Lines " + range + " of " + n2s(total) + ". " + next + "]";
  } else {
    footer = "[Lines " + range + "; more lines follow (file is " + n2s(size) + " bytes). " + next + "]";
  }
  if (column > 1)
    footer += "\n[Lines are shown from character " + n2s(column) + " on" +
              (fmt.cut() > 0 ? "; " + n2s(fmt.cut()) + " line(s) were cut after " +
                                   n2s(options.max_line_chars) + " characters.]"
                             : ".]");
  else if (fmt.cut() > 0)
    footer += "\n[" + n2s(fmt.cut()) + " line(s) longer than " + n2s(options.max_line_chars) +
              " characters were cut.]";
  if (options.json)
    footer += "\n[Pretty-printed JSON: line numbers, " +
              options.wording.say({.offset = 1, .limit = 1}, HintForm::names) +
              " count these lines, not the file's.]";
  else if (fmt.cut() > 0 && text_detail::has_json_extension(file.path))
    footer += "\n[To read this JSON a value per line, " + options.wording.say({.as = FileKind::json}) +
              ": it is shown pretty-printed.]";
  if (!is_utf8) footer += "\n[Decoded from " + describe_charset(cs) + " to UTF-8.]";
  if (fmt.replaced() > 0)
    footer += "\n" + replacement_note(fmt.replaced(), cs.name,
                                      std::span(reinterpret_cast<const unsigned char*>(sample.data()), sample.size()),
                                      options.wording);

  meta["start_line"] = s;
  meta["end_line"] = e;
  if (more) meta["next_offset"] = e + 1;
  meta["truncated"] = more;
  meta["long_lines_cut"] = fmt.cut();
  if (column > 1) meta["column"] = column;

  std::string text = std::move(fmt.text());
  text += '\n';
  text += footer;
  outcome.blocks.emplace_back(TextBlock{std::move(text)});
  return outcome;
}

}  // namespace mcpread::readers
