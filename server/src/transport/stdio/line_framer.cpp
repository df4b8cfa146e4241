#include "line_framer.hpp"

#include <cstring>

namespace mcpread::server {

void LineFramer::emit(std::string_view line, const OnLine& on_line) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  if (line.find_first_not_of(" \t\r") == std::string_view::npos) return;  // blank
  on_line(line);
}

void LineFramer::feed(std::string_view data, const OnLine& on_line, const OnOversize& on_oversize) {
  while (!data.empty()) {
    const void* nl = std::memchr(data.data(), '\n', data.size());
    const std::size_t take = nl ? static_cast<std::size_t>(static_cast<const char*>(nl) - data.data())
                                : data.size();
    if (discarding_) {
      if (nl) discarding_ = false;
    } else if (partial_.size() + take > max_) {
      on_oversize(partial_.size() + take);
      partial_.clear();
      partial_.shrink_to_fit();
      discarding_ = nl == nullptr;
    } else if (nl && partial_.empty()) {
      emit(data.substr(0, take), on_line);  // the common case: no copy
    } else {
      partial_.append(data.data(), take);
      if (nl) {
        std::string line = std::move(partial_);
        partial_.clear();
        emit(line, on_line);
      }
    }
    data.remove_prefix(nl ? take + 1 : take);
  }
}

void LineFramer::finish(const OnLine& on_line) {
  if (!discarding_ && !partial_.empty()) {
    std::string line = std::move(partial_);
    partial_.clear();
    emit(line, on_line);
  }
  discarding_ = false;
}

}  // namespace mcpread::server
