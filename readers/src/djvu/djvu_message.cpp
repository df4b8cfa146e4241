#include "djvu/djvu_message.hpp"

#include "child_message.hpp"

#include <algorithm>

namespace mcpread::readers::djvu {
namespace {

using child_message::Cursor;
using child_message::put32;
using child_message::put_text;

constexpr std::string_view kSurveyMagic = "mcp-read djvu survey 1\n";
constexpr std::string_view kPagesMagic = "mcp-read djvu pages 1\n";

void put_int(std::string& out, int v) { put32(out, static_cast<std::uint32_t>(std::max(v, 0))); }

}  // namespace

std::string ppm_header(int width, int height) {
  return "P6\n" + std::to_string(width) + " " + std::to_string(height) + "\n255\n";
}

std::string encode_survey(const Survey& survey, const std::string& why) {
  std::string out(kSurveyMagic);
  put_text(out, why);
  if (!why.empty()) return out;
  put_int(out, survey.pages);
  put32(out, static_cast<std::uint32_t>(survey.metadata.size()));
  for (const auto& [key, value] : survey.metadata) {
    put_text(out, key);
    put_text(out, value);
  }
  put32(out, static_cast<std::uint32_t>(survey.texts.size()));
  for (const SurveyedPage& p : survey.texts) {
    put_int(out, p.page);
    put_int(out, p.width);
    put_int(out, p.height);
    put_int(out, p.dpi);
    put_text(out, p.text);
    put_text(out, p.why);
    put32(out, p.late ? 1 : 0);
  }
  return out;
}

bool decode_survey(std::string_view message, const std::function<std::vector<int>(int)>& select,
                   const std::set<int>& known, Survey* survey, std::string* why) {
  if (!message.starts_with(kSurveyMagic)) return false;
  Cursor in(message.substr(kSurveyMagic.size()));
  std::string failure = in.text();
  if (!failure.empty()) {
    if (!in.done()) return false;
    *why = std::move(failure);
    return true;
  }
  Survey s;
  s.pages = in.at_most(kMaxPages);
  if (!in.ok() || s.pages == 0) return false;
  const std::uint32_t entries = in.count(8);
  for (std::uint32_t i = 0; i < entries && in.ok(); ++i) {
    std::string key = in.text();
    s.metadata[std::move(key)] = in.text();
  }
  if (!in.ok() || s.metadata.size() != entries) return false;  // a key twice
  // The pages the child was to read: those selected from its page count but the known ones.
  std::set<int> asked;
  for (int k : select(s.pages))
    if (!known.contains(k)) asked.insert(k);
  const std::uint32_t pages = in.count(28);
  for (std::uint32_t i = 0; i < pages && in.ok(); ++i) {
    SurveyedPage p;
    p.page = in.at_most(kMaxPages);
    p.width = in.at_most(kMaxEdge);
    p.height = in.at_most(kMaxEdge);
    p.dpi = in.at_most(kMaxEdge);
    p.text = in.text();
    p.why = in.text();
    p.late = in.at_most(1) == 1;
    if (p.late && p.why.empty()) in.fail();  // late is said of a page that failed
    if (asked.erase(p.page) == 0) in.fail();  // not asked for, or twice
    s.texts.push_back(std::move(p));
  }
  if (!in.done()) return false;
  *survey = std::move(s);
  return true;
}

std::string encode_renderings(const std::vector<Rendering>& renderings, const std::string& why) {
  std::string out(kPagesMagic);
  put_text(out, why);
  if (!why.empty()) return out;
  put32(out, static_cast<std::uint32_t>(renderings.size()));
  for (const Rendering& r : renderings) {
    put_text(out, r.why);
    put_text(out, r.ppm);
  }
  return out;
}

bool decode_renderings(std::string_view message, const std::vector<Drawing>& drawings, std::vector<Rendering>* out,
                       std::string* why) {
  if (!message.starts_with(kPagesMagic)) return false;
  Cursor in(message.substr(kPagesMagic.size()));
  std::string failure = in.text();
  if (!failure.empty()) {
    if (!in.done()) return false;
    *why = std::move(failure);
    return true;
  }
  if (in.count(8) != drawings.size() || !in.ok()) return false;
  std::vector<Rendering> got;
  for (const Drawing& d : drawings) {
    Rendering r;
    r.why = in.text();
    r.ppm = in.text();
    // Either why not, or the image of the size asked for: nothing else reaches the encoder.
    if (r.why.empty()) {
      const std::string head = ppm_header(d.width, d.height);
      const auto pixels = static_cast<std::uint64_t>(d.width) * static_cast<std::uint64_t>(d.height) * 3;
      if (!r.ppm.starts_with(head) || r.ppm.size() - head.size() != pixels) return false;
    } else if (!r.ppm.empty()) {
      return false;
    }
    got.push_back(std::move(r));
  }
  if (!in.done()) return false;
  *out = std::move(got);
  return true;
}

}  // namespace mcpread::readers::djvu
