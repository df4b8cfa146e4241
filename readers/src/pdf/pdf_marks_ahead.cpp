#include "pdf_marks_ahead.hpp"

#include <system_error>

namespace mcpread::readers::pdf {

MarksAhead::MarksAhead(const Api& api, mcpread_pdf_doc* doc, std::vector<int> pages)
    : api_(api), doc_(doc), pages_(std::move(pages)), marks_(pages_.size()) {
  if (pages_.size() < 2) return;
  try {
    worker_ = std::thread([this] { run(); });
  } catch (const std::system_error&) {
    // No thread to be had (a process at its limit): get() counts each page itself.
  }
}

MarksAhead::~MarksAhead() {
  {
    const std::lock_guard lock(mutex_);
    stop_ = true;
  }
  changed_.notify_all();
  if (worker_.joinable()) worker_.join();
}

std::optional<mcpread_pdf_marks> MarksAhead::count(int page) const {
  ErrorBuffer e;
  mcpread_pdf_marks marks{};
  if (api_.page_marks(doc_, page, &marks, e.text, sizeof e.text) != MCPREAD_PDF_OK) return std::nullopt;
  return marks;
}

void MarksAhead::run() {
  for (std::size_t i = 0; i < pages_.size(); ++i) {
    {
      std::unique_lock lock(mutex_);
      changed_.wait(lock, [&] { return stop_ || i < wanted_ + kLead; });
      if (stop_) return;
    }
    const auto marks = count(pages_[i]);
    {
      const std::lock_guard lock(mutex_);
      marks_[i] = marks;
      counted_ = i + 1;
    }
    changed_.notify_all();
  }
}

std::optional<mcpread_pdf_marks> MarksAhead::get(std::size_t i) {
  if (i >= pages_.size()) return std::nullopt;
  if (!worker_.joinable()) return count(pages_[i]);
  std::unique_lock lock(mutex_);
  wanted_ = i;
  changed_.notify_all();
  changed_.wait(lock, [&] { return counted_ > i; });
  return marks_[i];
}

}  // namespace mcpread::readers::pdf
