#pragma once
// What each page of a selection draws (mcpread_pdf_marks), counted on a thread of its own while
// the caller's thread extracts the pages' text. The count reads the content with qpdf and the
// text comes from poppler: the two share no state, and in a long read-through the count is about
// an eighth of the time, which the second core then takes. The worker stays a few pages ahead
// of the pages asked for, so an answer cut short (its byte budget, cancellation) wastes little.
#include "pdf_loader.hpp"

#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace mcpread::readers::pdf {

class MarksAhead {
 public:
  // Counts `pages` of `doc` in order; with one page (or when no thread can be started) each
  // count is made by get() itself.
  MarksAhead(const Api& api, mcpread_pdf_doc* doc, std::vector<int> pages);
  ~MarksAhead();  // stops the worker after its current page and joins it
  MarksAhead(const MarksAhead&) = delete;
  MarksAhead& operator=(const MarksAhead&) = delete;

  // The marks of the i-th page of the selection (waiting for them); nullopt when the count
  // failed (a damaged content stream). Called with i = 0, 1, 2, ... in turn.
  std::optional<mcpread_pdf_marks> get(std::size_t i);

 private:
  static constexpr std::size_t kLead = 4;  // pages counted ahead of the one asked for
  std::optional<mcpread_pdf_marks> count(int page) const;
  void run();

  const Api& api_;
  mcpread_pdf_doc* doc_;
  std::vector<int> pages_;
  std::vector<std::optional<mcpread_pdf_marks>> marks_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::size_t counted_ = 0;  // pages_[0 .. counted_) are in marks_
  std::size_t wanted_ = 0;   // the page get() waits for, or will next
  bool stop_ = false;
  std::thread worker_;
};

}  // namespace mcpread::readers::pdf
