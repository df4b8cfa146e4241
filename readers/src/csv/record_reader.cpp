#include "csv/record_reader.hpp"

#include <cstring>

namespace mcpread::readers::csv {
namespace {

constexpr std::size_t kBufferBytes = 256 << 10;

}  // namespace

RecordReader::RecordReader(ByteSource& source, const Dialect& dialect, std::uint64_t position)
    : source_(source), dialect_(dialect), buffer_(new char[kBufferBytes]), position_(position) {}

bool RecordReader::fill() {
  if (at_end_ || error_) return false;
  const auto got = source_.read(buffer_.get(), kBufferBytes);
  if (!got) {
    error_ = true;
    return false;
  }
  begin_ = 0;
  end_ = *got;
  at_end_ = *got == 0;
  return !at_end_;
}

void RecordReader::add_byte(Record* out, char c) {
  if (out == nullptr) return;
  if (field_.size() < kMaxFieldBytes) field_.push_back(c);
  else ++out->bytes_left_out;
}

void RecordReader::end_field(Record* out) {
  if (out == nullptr) return;
  if (out->fields.size() >= kMaxFields || record_bytes_ + field_.size() > kMaxRecordBytes) {
    ++out->fields_left_out;
  } else {
    record_bytes_ += field_.size();
    out->fields.push_back(field_);
  }
  field_.clear();
}

RecordReader::Got RecordReader::next(Record* out) {
  if (out != nullptr) {
    out->fields.clear();
    out->fields_left_out = 0;
    out->bytes_left_out = 0;
  }
  field_.clear();
  record_bytes_ = 0;
  enum class State { field_start, unquoted, quoted, quote_seen } state = State::field_start;
  bool started = false;   // a byte of this record was read
  bool cr_last = false;   // the last byte taken was a CR outside quotes (of a CRLF line end)
  const char delimiter = dialect_.delimiter, newline = dialect_.newline;
  const auto finish = [&] {
    // "a,b\r\n" ends in b, not in "b\r"; a CR inside quotes is the field's own.
    if (out != nullptr && cr_last && newline == '\n') {
      if (!field_.empty() && field_.back() == '\r') field_.pop_back();
      else if (out->bytes_left_out > 0) --out->bytes_left_out;
    }
    end_field(out);
    return Got::record;
  };
  for (;;) {
    if (begin_ == end_ && !fill()) {
      if (error_) return Got::error;
      if (!started) return Got::end;
      return finish();  // the last record, with no line end
    }
    started = true;
    // Skipping outside quotes: the way to the line end at memchr's speed, unless a quote lies
    // on it (then byte by byte, where a quote may open a quoted field).
    if (out == nullptr && (state == State::field_start || state == State::unquoted)) {
      const char* p = buffer_.get() + begin_;
      const std::size_t n = end_ - begin_;
      const auto* line_end = static_cast<const char*>(std::memchr(p, newline, n));
      const std::size_t run = line_end != nullptr ? static_cast<std::size_t>(line_end - p) : n;
      if (std::memchr(p, '"', run) == nullptr) {
        begin_ += run;
        position_ += run;
        if (line_end != nullptr) {
          ++begin_;
          ++position_;
          return Got::record;
        }
        state = p[run - 1] == delimiter ? State::field_start : State::unquoted;
        continue;
      }
    }
    const char c = buffer_[begin_++];
    ++position_;
    switch (state) {
      case State::quoted:
        if (c == '"') state = State::quote_seen;
        else add_byte(out, c);
        cr_last = false;
        continue;
      case State::quote_seen:
        if (c == '"') {  // a doubled quote inside quotes
          add_byte(out, c);
          state = State::quoted;
          continue;
        }
        break;  // the quoted part ended: what follows is read as outside quotes
      case State::field_start:
        if (c == '"') {
          state = State::quoted;
          continue;
        }
        break;
      case State::unquoted:
        break;
    }
    if (c == delimiter) {
      end_field(out);
      state = State::field_start;
      cr_last = false;
    } else if (c == newline) {
      return finish();
    } else {
      add_byte(out, c);
      state = State::unquoted;
      cr_last = c == '\r';
    }
  }
}

}  // namespace mcpread::readers::csv
