#include "csv/sources.hpp"

#include <algorithm>
#include <cstring>

namespace mcpread::readers::csv {

std::optional<std::size_t> StringSource::read(char* buf, std::size_t cap) {
  const std::size_t n = std::min(cap, bytes_.size());
  std::memcpy(buf, bytes_.data(), n);
  bytes_.remove_prefix(n);
  return n;
}

std::optional<std::size_t> ConvertingSource::read(char* buf, std::size_t cap) {
  while (taken_ == converted_.size() && !done_) {
    converted_.clear();
    taken_ = 0;
    raw_.resize(256 << 10);
    const auto got = reader_.read(raw_.data(), raw_.size());
    if (!got) return std::nullopt;
    raw_.resize(*got);
    done_ = *got == 0;
    converter_.convert(raw_, converted_, done_);
  }
  const std::size_t n = std::min(cap, converted_.size() - taken_);
  std::memcpy(buf, converted_.data() + taken_, n);
  taken_ += n;
  return n;
}

}  // namespace mcpread::readers::csv
