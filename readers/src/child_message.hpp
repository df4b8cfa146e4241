#pragma once
// The bytes a child process (child_process.hpp) sends back, written and read: little-endian
// 32-bit numbers and length-prefixed text. The reading side trusts nothing: a value the bytes do
// not hold, a count more items than the bytes left could hold, fails the cursor for good, and the
// caller refuses the whole message. Internal to the readers library.
#include "byte_order.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace mcpread::readers::child_message {

inline void put32(std::string& out, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
}
inline void put_text(std::string& out, std::string_view s) {
  put32(out, static_cast<std::uint32_t>(s.size()));
  out.append(s);
}

// Reads what put32/put_text wrote, failing (for good) at the first value the bytes do not hold.
class Cursor {
 public:
  explicit Cursor(std::string_view bytes) : bytes_(bytes) {}
  std::uint32_t u32() {
    if (!ok_ || bytes_.size() - at_ < 4) return ok_ = false, 0;
    const std::uint32_t v = bytes::le32(bytes_, at_);
    at_ += 4;
    return v;
  }
  // A value no greater than `most`.
  int at_most(std::uint32_t most) {
    const std::uint32_t v = u32();
    if (v > most) ok_ = false;
    return ok_ ? static_cast<int>(v) : 0;
  }
  std::string text() {
    const std::uint32_t n = u32();
    if (!ok_ || bytes_.size() - at_ < n) return ok_ = false, std::string();
    std::string s(bytes_.substr(at_, n));
    at_ += n;
    return s;
  }
  // A count of items each taking at least `item_bytes`: no more than the bytes left can hold.
  std::uint32_t count(std::size_t item_bytes) {
    const std::uint32_t n = u32();
    if (ok_ && n > (bytes_.size() - at_) / item_bytes) ok_ = false;
    return ok_ ? n : 0;
  }
  void fail() { ok_ = false; }
  [[nodiscard]] bool ok() const { return ok_; }
  [[nodiscard]] bool done() const { return ok_ && at_ == bytes_.size(); }

 private:
  std::string_view bytes_;
  std::size_t at_ = 0;
  bool ok_ = true;
};

}  // namespace mcpread::readers::child_message
