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

}  // namespace mcpread::readers
