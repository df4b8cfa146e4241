#include "json_pretty.hpp"

#include "file_io.hpp"
#include "mcpread/common/ascii.hpp"
#include "mcpread/common/compat.hpp"
#include "mcpread/readers/hint.hpp"
#include "mcpread/readers/utf8.hpp"

#include <nlohmann/json.hpp>

#include <cctype>
#include <cerrno>
#include <cstring>
#include <charconv>
#include <iterator>
#include <memory>
#include <vector>

namespace mcpread::readers::text_detail {
namespace {

using nlohmann::json;

constexpr std::size_t kReadBytes = 256u << 10;
constexpr std::size_t kFlushBytes = 64u << 10;

// The file as a byte source for the parser: refilled chunk by chunk, so that memory stays
// bounded whatever the file's size. A read error or a cancellation ends the input early; the
// caller tells those apart from a truncated document by the flags.
struct Source {
  int fd = -1;
  const CancelToken* cancel = nullptr;
  std::unique_ptr<char[]> buffer = compat::make_char_buffer(kReadBytes);
  std::size_t pos = 0;
  std::size_t len = 0;
  std::uint64_t offset = 0;
  bool ended = false;
  int error = 0;
  bool cancelled = false;

  bool exhausted() {
    if (pos < len) return false;
    if (ended) return true;
    if (cancel->cancelled()) {
      cancelled = ended = true;
      return true;
    }
    const auto got = file_io::pread_full(fd, buffer.get(), kReadBytes, offset);
    if (!got) {
      error = errno;
      ended = true;
      return true;
    }
    offset += *got;
    pos = 0;
    len = *got;
    if (len == 0) ended = true;
    return len == 0;
  }
};

// An input iterator over a Source, the form nlohmann's iterator input adapter reads.
class SourceIterator {
 public:
  using iterator_category = std::input_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char*;
  using reference = const char&;

  SourceIterator() = default;  // the end
  explicit SourceIterator(Source* s) : s_(s) {}
  reference operator*() const { return s_->buffer[s_->pos]; }
  SourceIterator& operator++() {
    ++s_->pos;
    return *this;
  }
  SourceIterator operator++(int) {
    SourceIterator before = *this;
    ++*this;
    return before;
  }
  bool operator==(const SourceIterator& o) const { return at_end() == o.at_end(); }

 private:
  [[nodiscard]] bool at_end() const { return s_ == nullptr || s_->exhausted(); }
  Source* s_ = nullptr;
};

// Writes SAX events as json::dump(2) lays a document out: an empty object or array stays "{}"
// or "[]", every other member or element on its own line. Lines are finished when the next one
// begins, so that a line knows its number before anything is written into it.
class Printer : public json::json_sax_t {
 public:
  Printer(const JsonPrettyOptions& o, const std::function<bool(std::string_view)>& sink)
      : o_(o), sink_(sink) {}

  bool null() override { return scalar("null"); }
  bool boolean(bool v) override { return scalar(v ? "true" : "false"); }
  bool number_integer(number_integer_t v) override { return number(v); }
  bool number_unsigned(number_unsigned_t v) override { return number(v); }
  // The number as the file writes it (1e5 stays 1e5, 0.10 stays 0.10).
  bool number_float(number_float_t, const string_t& raw) override { return scalar(raw); }
  bool string(string_t& v) override {
    if (!value_starts()) return false;
    quoted(v);
    return true;
  }
  bool binary(binary_t&) override { return true; }  // JSON text has none
  bool start_object(std::size_t) override { return open('{', true); }
  bool start_array(std::size_t) override { return open('[', false); }
  bool end_object() override { return close('}'); }
  bool end_array() override { return close(']'); }
  bool key(string_t& k) override {
    if (!next_item()) return false;
    quoted(k);
    if (shown_) line_ += ": ";
    return true;
  }
  bool parse_error(std::size_t position, const std::string&,
                   const nlohmann::detail::exception& ex) override {
    error_byte_ = position;
    // "[json.exception.parse_error.101] parse error at line 1, column 5: syntax error ..."
    std::string what = ex.what();
    if (const auto colon = what.find(": "); colon != std::string::npos) what.erase(0, colon + 2);
    error_ = std::move(what);
    return false;
  }

  // After a successful parse: ends the last line and hands over what is left.
  bool finish() {
    end_line();
    return flush(true);
  }

  [[nodiscard]] bool stopped() const { return stopped_; }
  [[nodiscard]] bool too_deep() const { return too_deep_; }
  [[nodiscard]] const std::string& error() const { return error_; }
  [[nodiscard]] std::uint64_t error_byte() const { return error_byte_; }

 private:
  struct Level {
    bool object = false;
    std::size_t items = 0;
  };

  // A value begins: in an array it starts its own line; after a key it continues the key's line.
  bool value_starts() {
    if (!levels_.empty() && !levels_.back().object) return next_item();
    if (levels_.empty() && started_) return true;
    if (levels_.empty()) begin_line(0);
    return true;
  }

  // A member or element begins: the one before gets its comma and a new line begins.
  bool next_item() {
    Level& level = levels_.back();
    if (level.items++ > 0 && shown_) line_ += ',';
    end_line();
    if (!flush(false)) return false;
    begin_line(levels_.size());
    return true;
  }

  bool scalar(std::string_view text) {
    if (!value_starts()) return false;
    if (shown_) line_ += text;
    return true;
  }

  template <typename T>
  bool number(T v) {
    char buf[24];
    const auto end = std::to_chars(buf, buf + sizeof buf, v).ptr;
    return scalar(std::string_view(buf, static_cast<std::size_t>(end - buf)));
  }

  bool open(char bracket, bool object) {
    if (!value_starts()) return false;
    if (levels_.size() >= o_.max_depth) {
      too_deep_ = true;
      return false;
    }
    if (shown_) line_ += bracket;
    levels_.push_back({object, 0});
    return true;
  }

  bool close(char bracket) {
    const bool empty = levels_.back().items == 0;
    levels_.pop_back();
    if (!empty) {
      end_line();
      if (!flush(false)) return false;
      begin_line(levels_.size());
    }
    if (shown_) line_ += bracket;
    return true;
  }

  void begin_line(std::size_t depth) {
    started_ = true;
    ++line_no_;
    shown_ = line_no_ >= o_.first && line_no_ <= o_.last;
    if (shown_) line_.append(2 * depth, ' ');
  }

  void end_line() {
    if (!started_) return;
    out_ += line_;
    out_ += '\n';
    line_.clear();
  }

  bool flush(bool last) {
    if (out_.empty() || (!last && out_.size() < kFlushBytes)) return true;
    const bool more = sink_(out_);
    out_.clear();
    if (!more) stopped_ = true;
    return more;
  }

  // The string as JSON writes it: quotes, backslash and control characters escaped; the
  // parser has already checked that it is valid UTF-8.
  void quoted(std::string_view s) {
    if (!shown_) return;
    static constexpr char kHex[] = "0123456789abcdef";
    line_ += '"';
    for (const char c : s) {
      const auto b = static_cast<unsigned char>(c);
      switch (c) {
        case '"': line_ += "\\\""; break;
        case '\\': line_ += "\\\\"; break;
        case '\b': line_ += "\\b"; break;
        case '\f': line_ += "\\f"; break;
        case '\n': line_ += "\\n"; break;
        case '\r': line_ += "\\r"; break;
        case '\t': line_ += "\\t"; break;
        default:
          if (b < 0x20) {
            line_ += "\\u00";
            line_ += kHex[b >> 4];
            line_ += kHex[b & 0xF];
          } else {
            line_ += c;
          }
      }
    }
    line_ += '"';
  }

  const JsonPrettyOptions& o_;
  const std::function<bool(std::string_view)>& sink_;
  std::vector<Level> levels_;
  std::string line_;  // the line being written (empty while it is not shown)
  std::string out_;   // finished lines not yet handed over
  std::uint64_t line_no_ = 0;
  bool started_ = false;
  bool shown_ = false;
  bool stopped_ = false;
  bool too_deep_ = false;
  std::string error_;
  std::uint64_t error_byte_ = 0;
};

}  // namespace

JsonPrettyResult pretty_print_json(int fd, const JsonPrettyOptions& options,
                                   const std::function<bool(std::string_view)>& sink,
                                   const CancelToken& cancel) {
  using Status = JsonPrettyResult::Status;
  JsonPrettyResult result;
  Source source;
  source.fd = fd;
  source.cancel = &cancel;
  Printer printer(options, sink);
  bool parsed = false;
  try {
    parsed = json::sax_parse(SourceIterator(&source), SourceIterator(), &printer);
  } catch (const std::exception& e) {  // allocation failures: the request must not die of them
    result.status = Status::invalid;
    result.message = e.what();
    return result;
  }
  if (source.cancelled) {
    result.status = Status::cancelled;
  } else if (source.error != 0) {
    result.status = Status::read_error;
    result.error = source.error;
  } else if (printer.stopped()) {
    result.status = Status::stopped;
  } else if (printer.too_deep()) {
    result.status = Status::too_deep;
    result.byte = source.offset - (source.len - source.pos);
  } else if (!parsed) {
    result.status = Status::invalid;
    result.byte = printer.error_byte();
    result.message = printer.error();
  } else if (!printer.finish()) {
    result.status = Status::stopped;
  }
  return result;
}

std::optional<ReadOutcome> read_json_lines(const OpenedFile& file, std::uint64_t offset,
                                           const TextOptions& options, LineScanner& scanner,
                                           const CancelToken& cancel) {
  using Status = JsonPrettyResult::Status;
  JsonPrettyOptions json_options;
  json_options.first = offset;
  const std::uint64_t limit = options.limit == 0 ? 1 : options.limit;
  json_options.last = limit > UINT64_MAX - offset ? UINT64_MAX : offset + limit - 1;
  const auto r = pretty_print_json(
      file.fd.get(), json_options,
      [&](std::string_view text) {
        scanner.feed(text);
        return !scanner.done();
      },
      cancel);
  const std::string path = utf8::sanitized(file.path.string());
  const std::string as_text =
      " " + options.wording.say({.as = FileKind::text}, HintForm::Call) + " to see the file as it is.";
  switch (r.status) {
    case Status::done:
    case Status::stopped: return std::nullopt;
    case Status::cancelled: return ReadOutcome::stopped();
    case Status::read_error:
      return ReadOutcome::error("Could not read " + path + ": " +
                                utf8::sanitized(std::strerror(r.error)) + ".");
    case Status::too_deep:
      return ReadOutcome::error(path + " nests JSON deeper than " + std::to_string(json_options.max_depth) +
                                " levels (at byte " + std::to_string(r.byte) +
                                "), too deep to show pretty-printed." + as_text);
    case Status::invalid: break;
  }
  // The parser quotes the token it failed on, which may be a whole (huge) string value.
  std::string why = utf8::sanitized(r.message);
  constexpr std::size_t kMaxWhy = 300;
  if (utf8::count_chars(why) > kMaxWhy) why = why.substr(0, utf8::prefix_bytes(why, kMaxWhy)) + "\u2026";
  return ReadOutcome::error(path + " is not valid JSON: at byte " + std::to_string(r.byte) + ", " + why + "." +
                            as_text);
}

bool has_json_extension(const std::filesystem::path& path) {
  return common::ascii_lower(path.extension().string()) == ".json";
}

}  // namespace mcpread::readers::text_detail
