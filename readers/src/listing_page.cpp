#include "listing_page.hpp"

namespace mcpread::readers {

std::string close_listing_page(ReadOutcome& out, std::uint64_t first, std::uint64_t shown, std::uint64_t total,
                               const char* items, const Wording& wording) {
  const bool more = first + shown < total;
  out.meta["shown"] = shown;
  out.meta["truncated"] = more;
  out.meta["start_entry"] = first + 1;
  out.meta["end_entry"] = first + shown;
  if (more) out.meta["next_offset"] = first + shown + 1;
  const std::string range = std::to_string(first + 1) + "-" + std::to_string(first + shown);
  if (more)
    return "\n[" + std::string(items) + " " + range + " of " + std::to_string(total) + ". To list more, " +
           wording.say({.offset = first + shown + 1}, HintForm::call_again) + ".]";
  if (first > 0) return "\n[" + std::string(items) + " " + range + " of " + std::to_string(total) + ". End of listing.]";
  return {};
}

ReadOutcome fill_listing_page(ReadOutcome out, std::string head, const ListingWindow& window,
                              const std::function<std::string(std::uint64_t)>& line_at, std::size_t max_bytes,
                              const std::string& tail, const Wording& wording) {
  if (window.page == 0) {
    ReadOutcome err = ReadOutcome::error("Offset " + std::to_string(window.offset) + " is past " + window.past_end +
                                         ". Use an offset from 1 to " + std::to_string(window.total) + ".");
    err.meta = std::move(out.meta);
    return err;
  }
  std::string text = std::move(head);
  std::uint64_t shown = 0;
  for (; shown < window.page; ++shown) {
    const std::string line = "\n" + line_at(window.first + shown);
    if (shown > 0 && text.size() + line.size() > max_bytes) break;
    text += line;
  }
  text += close_listing_page(out, window.first, shown, window.total, window.items, wording);
  text += tail;
  out.blocks.emplace_back(TextBlock{std::move(text)});
  return out;
}

}  // namespace mcpread::readers
