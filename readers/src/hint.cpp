#include "mcpread/readers/hint.hpp"

#include <atomic>

namespace mcpread::readers {
namespace {

// For builds without a tool host (fuzz targets, the conformance fixture): the values in words.
std::string plain(const Hint& h, HintForm form) {
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

std::atomic<HintWording> g_wording{plain};

}  // namespace

void set_hint_wording(HintWording wording) { g_wording.store(wording != nullptr ? wording : plain); }

std::string say(const Hint& hint, HintForm form) { return g_wording.load()(hint, form); }

}  // namespace mcpread::readers
