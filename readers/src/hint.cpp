#include "mcpread/readers/hint.hpp"

namespace mcpread::readers {

std::string plain_wording(const Hint& h, HintForm form) {
  std::string out;
  auto add = [&](const std::string& part) { out += (out.empty() ? "" : ", ") + part; };
  if (h.as) add("as " + std::string(h.as->name()));
  if (h.offset) add("from " + std::to_string(*h.offset));
  if (h.limit) add(std::to_string(*h.limit) + " at most");
  if (h.column) add("from character " + std::to_string(*h.column));
  if (!h.pages.empty()) add("pages " + h.pages);
  if (!h.encoding.empty()) add("decoded from " + h.encoding);
  switch (form) {
    case HintForm::arguments:
    case HintForm::names: return out;
    case HintForm::Call: return "Read it again " + out;
    case HintForm::call:
    case HintForm::call_again: break;
  }
  return "read it again " + out;
}

}  // namespace mcpread::readers
