#pragma once
// One DjVu document decoded by djvulibre in this process: its page count, metadata, each page's
// hidden text as lines and its size, and pages rendered as PPM images. djvulibre decodes in its
// own threads and reports through messages: every wait here polls them against a deadline, so
// that a damaged file ends in an error, never in a wait for a message that does not come. The
// reader runs this in a child process (djvu_worker.cpp). Internal to the DjVu reader.
#if !defined(_WIN32)
#include "djvu/djvu_api.hpp"
#include "djvu/djvu_worker.hpp"

#include <chrono>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <variant>

namespace mcpread::readers::djvu {

struct PageInfo {
  int width = 0;   // pixels, the page's initial rotation applied
  int height = 0;
  int dpi = 0;
};

struct PageText {
  PageInfo info;
  std::string text;  // lines, paragraphs and regions a blank line apart; empty: no text layer
};

class Decoder {
 public:
  using Clock = std::chrono::steady_clock;
  // Opens the document; on failure a clause saying why ("djvulibre cannot read it: ...").
  static std::variant<std::unique_ptr<Decoder>, std::string> open(const Source& source, Clock::time_point deadline);
  ~Decoder();
  Decoder(const Decoder&) = delete;
  Decoder& operator=(const Decoder&) = delete;

  [[nodiscard]] int pages() const { return pages_; }
  // Whether the deadline has passed: what fails now may only have wanted more time.
  [[nodiscard]] bool past_deadline() const { return Clock::now() >= deadline_; }
  // The document's metadata (djvused's set-meta: title, author, ...); empty when none.
  std::map<std::string, std::string> metadata();
  // Page `k` (1-based): its size and text, or a clause saying why not.
  std::variant<PageText, std::string> page_text(int k);
  // Page `k` drawn at width x height pixels as a binary PPM (P6), or why not.
  Rendering render_ppm(int k, int width, int height);

 private:
  Decoder(const Api* api, Clock::time_point deadline) : api_(api), deadline_(deadline) {}
  // Handles waiting messages (keeps the first error's text, refuses streams other than the main
  // one), until `done` or the deadline; false at the deadline.
  template <class Done>
  bool wait(Done done);
  void drain();
  std::string failure(std::string_view what);

  const Api* api_;
  Clock::time_point deadline_;
  ddjvu_context_t* ctx_ = nullptr;
  ddjvu_document_t* doc_ = nullptr;
  int pages_ = 0;
  std::string error_;       // djvulibre's first error message
  bool wanted_other_file_ = false;  // an indirect document read from memory asked for a page file
};

}  // namespace mcpread::readers::djvu
#endif
