#include "hint_wording.hpp"

#include <string_view>
#include <vector>

namespace mcpread::server {

namespace {

// "column", "offset and limit": the arguments a hint sets, by name.
std::string names(const readers::Hint& h) {
  std::vector<std::string_view> set;
  if (h.as) set.emplace_back("file_type");
  if (h.offset) set.emplace_back("offset");
  if (h.limit) set.emplace_back("limit");
  if (h.column) set.emplace_back("column");
  if (!h.pages.empty()) set.emplace_back("pages");
  if (!h.encoding.empty()) set.emplace_back("encoding");
  std::string out;
  for (std::size_t i = 0; i < set.size(); ++i)
    out += std::string(i == 0 ? "" : i + 1 == set.size() ? " and " : ", ") + std::string(set[i]);
  return out;
}

}  // namespace

std::string hint_wording(const readers::Hint& h, readers::HintForm form) {
  using readers::HintForm;
  if (form == HintForm::names) return names(h);
  if (h.without) return (form == HintForm::Call ? "Call read without " : "call read without ") + names(h);
  // Arguments in the order a call would give them; a kind and a selection read as one request
  // ("file_type=... and pages=..."), a position as a list ("offset=N, limit=1, column=C").
  std::string out;
  auto quoted = [](std::string_view name, std::string_view value) {
    return std::string(name) + "=\"" + std::string(value) + "\"";
  };
  if (h.as) out = quoted("file_type", h.as->name());
  if (h.paged) out += " (and offset/limit)";
  if (!h.pages.empty()) out += (out.empty() ? "" : " and ") + quoted("pages", h.pages);
  std::string position;
  auto add = [&](std::string_view name, std::uint64_t v) {
    position += (position.empty() ? "" : ", ") + std::string(name) + "=" + std::to_string(v);
  };
  if (h.offset) add("offset", *h.offset);
  if (h.limit) add("limit", *h.limit);
  if (h.column) add("column", *h.column);
  if (!position.empty()) out += (out.empty() ? "" : " and ") + position;
  if (!h.encoding.empty())
    out += (out.empty() ? "" : h.encoding_is_example ? " and an encoding such as " : " and ") +
           quoted("encoding", h.encoding);
  switch (form) {
    case HintForm::arguments:
    case HintForm::names: return out;  // names: answered above
    case HintForm::call: return "call read with " + out;
    case HintForm::Call: return "Call read with " + out;
    case HintForm::call_again: break;
  }
  return "call read again with " + out;
}

}  // namespace mcpread::server
