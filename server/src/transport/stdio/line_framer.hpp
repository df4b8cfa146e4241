#pragma once
// Splits a byte stream into newline-delimited messages: partial lines are kept until their end
// arrives, a trailing CR is removed, blank lines are skipped, and a line longer than the limit is
// reported once and discarded up to its newline without being stored.
#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

namespace mcpread::server {

class LineFramer {
 public:
  using OnLine = std::function<void(std::string_view line)>;
  using OnOversize = std::function<void(std::size_t bytes_so_far)>;

  explicit LineFramer(std::size_t max_line_bytes) : max_(max_line_bytes) {}
  void feed(std::string_view data, const OnLine& on_line, const OnOversize& on_oversize);
  // At end of input: a final line without newline is still a message.
  void finish(const OnLine& on_line);

 private:
  void emit(std::string_view line, const OnLine& on_line);
  std::size_t max_;
  std::string partial_;
  bool discarding_ = false;
};

}  // namespace mcpread::server
