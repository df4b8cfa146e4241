#pragma once
// The pieces the standard's decoders share (whatwg_reference.cpp, whatwg_reference_stateful.cpp):
// the I/O queue, a handler's result, and index look-ups.
#include <cstddef>
#include <initializer_list>
#include <iterator>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace mcpread::test::whatwg::detail {

constexpr int kEnd = -1;  // end-of-queue

// The index code point for `pointer` in index-<name>.txt; 0 for null (no index maps to U+0000).
char32_t code_point(const std::string& name, long pointer);

// The I/O queue: the input bytes, with restored items read before them.
class Queue {
 public:
  explicit Queue(std::string_view bytes) : bytes_(bytes) {}
  int read() {
    if (!restored_.empty()) {
      const int b = restored_.back();
      restored_.pop_back();
      return b;
    }
    if (at_ == bytes_.size()) return kEnd;  // end-of-queue stays in the queue
    return static_cast<unsigned char>(bytes_[at_++]);
  }
  void restore(std::initializer_list<int> items) {
    for (auto it = std::rbegin(items); it != std::rend(items); ++it) restored_.push_back(*it);
  }

 private:
  std::string_view bytes_;
  std::size_t at_ = 0;
  std::vector<int> restored_;  // the next item last
};

struct Result {
  enum Kind { Continue, Finished, Error, Emit } kind = Continue;
  char32_t first = 0, second = 0;  // Big5 returns two code points for four pointers
};
inline Result cont() { return {}; }
inline Result finished() { return {Result::Finished}; }
inline Result error() { return {Result::Error}; }
inline Result emit(char32_t c, char32_t d = 0) { return {Result::Emit, c, d}; }
inline bool ascii(int b) { return b >= 0 && b <= 0x7F; }
inline bool in(int b, int lo, int hi) { return b >= lo && b <= hi; }

class Decoder {
 public:
  virtual ~Decoder() = default;
  virtual Result handle(Queue& q, int byte) = 0;
};

// whatwg_reference_stateful.cpp
std::unique_ptr<Decoder> make_utf_8();
std::unique_ptr<Decoder> make_iso_2022_jp();
std::unique_ptr<Decoder> make_utf_16(bool big_endian);

}  // namespace mcpread::test::whatwg::detail
