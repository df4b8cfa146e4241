#include "sheets/xlsb_records.hpp"

#include "utf8_internal.hpp"

#include <cstring>

namespace mcpread::readers::sheets::xlsb {
namespace {

// A header's variable-length integer at the start of `b`: its value and its byte count; nullopt
// when `b` ends first, 0 bytes when it runs past `max_bytes` (a damaged header).
struct VarInt {
  std::uint32_t value = 0;
  std::size_t bytes = 0;
};

std::optional<VarInt> var_int(std::string_view b, std::size_t max_bytes) {
  VarInt v;
  for (std::size_t i = 0; i < max_bytes; ++i) {
    if (i >= b.size()) return std::nullopt;
    const auto byte = static_cast<unsigned char>(b[i]);
    v.value |= static_cast<std::uint32_t>(byte & 0x7F) << (7 * i);
    if ((byte & 0x80) == 0) {
      v.bytes = i + 1;
      return v;
    }
  }
  return VarInt{};
}

}  // namespace

bool RecordStream::feed(std::string_view chunk) {
  if (stopped_) return false;
  while (!chunk.empty()) {
    if (skip_ > 0) {
      const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(skip_, chunk.size()));
      skip_ -= n;
      chunk.remove_prefix(n);
      continue;
    }
    if (type_) {  // a wanted record's body, gathered whole
      const std::size_t n = std::min<std::size_t>(size_ - pending_.size(), chunk.size());
      pending_.append(chunk.substr(0, n));
      chunk.remove_prefix(n);
      if (pending_.size() < size_) break;
      const std::uint32_t type = *type_;
      type_.reset();
      const bool go_on = on_record_(type, pending_);
      pending_.clear();
      if (!go_on) {
        stopped_ = true;
        return false;
      }
      continue;
    }
    // A header: at most 2 bytes of type and 4 of size, possibly split between chunks.
    const std::size_t had = pending_.size();
    pending_.append(chunk.substr(0, 6 - had));
    const auto type = var_int(pending_, 2);
    const auto size = type && type->bytes > 0 ? var_int(std::string_view(pending_).substr(type->bytes), 4)
                                              : std::optional<VarInt>();
    if ((type && type->bytes == 0) || (size && size->bytes == 0)) {
      error_ = "a record header is damaged";
      stopped_ = true;
      return false;
    }
    if (!size) {  // not whole yet: the chunk is used up
      chunk.remove_prefix(pending_.size() - had);
      continue;
    }
    const std::size_t header = type->bytes + size->bytes;
    chunk.remove_prefix(header - had);
    pending_.clear();
    if (!wanted_(type->value)) {
      skip_ = size->value;
      continue;
    }
    if (size->value > max_record_) {
      error_ = "a record claims " + std::to_string(size->value) + " bytes, more than the " +
               std::to_string(max_record_) + " read of one record";
      stopped_ = true;
      return false;
    }
    type_ = type->value;
    size_ = size->value;
    if (size_ == 0) {
      type_.reset();
      if (!on_record_(type->value, {})) {
        stopped_ = true;
        return false;
      }
    }
  }
  return true;
}

bool RecordStream::finish() {
  if (stopped_) return error_.empty();
  if (type_ || skip_ > 0 || !pending_.empty()) {
    error_ = "it ends inside a record";
    return false;
  }
  return true;
}

bool Fields::take(std::size_t n) {
  if (failed_ || n > body_.size() - at_) {
    failed_ = true;
    return false;
  }
  return true;
}

std::uint8_t Fields::u8() {
  if (!take(1)) return 0;
  return static_cast<std::uint8_t>(body_[at_++]);
}

std::uint16_t Fields::u16() {
  if (!take(2)) return 0;
  const auto v = static_cast<std::uint16_t>(static_cast<unsigned char>(body_[at_]) |
                                            static_cast<unsigned char>(body_[at_ + 1]) << 8);
  at_ += 2;
  return v;
}

std::uint32_t Fields::u32() {
  const std::uint32_t low = u16();
  return low | static_cast<std::uint32_t>(u16()) << 16;
}

double Fields::f64() {
  if (!take(8)) return 0;
  std::uint64_t bits = 0;
  for (int i = 7; i >= 0; --i) bits = bits << 8 | static_cast<unsigned char>(body_[at_ + static_cast<std::size_t>(i)]);
  at_ += 8;
  double v = 0;
  std::memcpy(&v, &bits, sizeof v);
  return v;
}

std::string Fields::wide_string(bool nullable) {
  const std::uint32_t count = u32();
  if (failed_ || (nullable && count == 0xFFFFFFFF)) return {};
  if (count > left() / 2) {  // the count is checked against the record before anything is held
    failed_ = true;
    return {};
  }
  std::string out;
  out.reserve(count);
  utf8::detail::Utf16Units units;
  for (std::uint32_t i = 0; i < count; ++i) units.add(static_cast<char16_t>(u16()), out);
  units.finish(out);
  return out;
}

void Fields::skip(std::size_t n) {
  if (take(n)) at_ += n;
}

double rk_number(std::uint32_t rk) {
  double v = 0;
  if (rk & 0x2) {
    v = static_cast<double>(static_cast<std::int32_t>(rk) >> 2);  // arithmetic: the integer is signed
  } else {
    const std::uint64_t bits = static_cast<std::uint64_t>(rk & 0xFFFFFFFC) << 32;
    std::memcpy(&v, &bits, sizeof v);
  }
  return (rk & 0x1) ? v / 100 : v;
}

}  // namespace mcpread::readers::sheets::xlsb
