#include "chm/chm_contents.hpp"

#include <algorithm>
#include <cstdint>

namespace mcpread::readers::chm {
namespace {

char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

bool same_nocase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) { return lower(x) == lower(y); });
}

void append_utf8(std::uint32_t cp, std::string& out) {
  if (cp == 0 || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) cp = 0xFFFD;
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

// An attribute's value with the entities these files use decoded (&amp; &lt; &gt; &quot; &apos;
// &nbsp; and numeric ones); any other '&' kept as it is.
std::string decoded(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const std::size_t semi = s[i] == '&' ? s.find(';', i) : std::string_view::npos;
    if (semi == std::string_view::npos || semi - i > 10) {
      out += s[i];
      continue;
    }
    const std::string_view name = s.substr(i + 1, semi - i - 1);
    std::uint32_t cp = 0;
    if (name.size() > 1 && name[0] == '#') {
      const bool hex = lower(name[1]) == 'x';
      bool digits = name.size() > (hex ? 2u : 1u);
      for (char c : name.substr(hex ? 2 : 1)) {
        const int d = c >= '0' && c <= '9' ? c - '0' : hex && lower(c) >= 'a' && lower(c) <= 'f' ? lower(c) - 'a' + 10 : -1;
        if (d < 0) digits = false;
        else cp = std::min<std::uint32_t>(cp * (hex ? 16 : 10) + static_cast<std::uint32_t>(d), 0x110000);
      }
      if (!digits) cp = 0xFFFFFFFF;
    } else if (name == "amp") cp = '&';
    else if (name == "lt") cp = '<';
    else if (name == "gt") cp = '>';
    else if (name == "quot") cp = '"';
    else if (name == "apos") cp = '\'';
    else if (name == "nbsp") cp = 0xA0;
    else cp = 0xFFFFFFFF;
    if (cp == 0xFFFFFFFF) {
      out += s[i];
      continue;
    }
    append_utf8(cp, out);
    i = semi;
  }
  return out;
}

// A tag's name and attributes, from just after its '<' to its '>'.
struct Tag {
  std::string name;  // lower case; "/ul" for an end tag
  std::vector<std::pair<std::string, std::string>> attributes;  // names in lower case
};

Tag parse_tag(std::string_view t) {
  Tag tag;
  std::size_t i = 0;
  while (i < t.size() && t[i] != ' ' && t[i] != '\t' && t[i] != '\r' && t[i] != '\n' && t[i] != '>') tag.name += lower(t[i++]);
  if (tag.name.ends_with('/')) tag.name.pop_back();
  while (i < t.size()) {
    while (i < t.size() && (t[i] == ' ' || t[i] == '\t' || t[i] == '\r' || t[i] == '\n' || t[i] == '/')) ++i;
    std::string name;
    while (i < t.size() && t[i] != '=' && t[i] != ' ' && t[i] != '\t' && t[i] != '\r' && t[i] != '\n' && t[i] != '/')
      name += lower(t[i++]);
    while (i < t.size() && (t[i] == ' ' || t[i] == '\t' || t[i] == '\r' || t[i] == '\n')) ++i;
    std::string value;
    if (i < t.size() && t[i] == '=') {
      ++i;
      while (i < t.size() && (t[i] == ' ' || t[i] == '\t' || t[i] == '\r' || t[i] == '\n')) ++i;
      if (i < t.size() && (t[i] == '"' || t[i] == '\'')) {
        const char quote = t[i++];
        const std::size_t end = std::min(t.find(quote, i), t.size());
        value = decoded(t.substr(i, end - i));
        i = end + 1;
      } else {
        const std::size_t start = i;
        while (i < t.size() && t[i] != ' ' && t[i] != '\t' && t[i] != '\r' && t[i] != '\n') ++i;
        value = decoded(t.substr(start, i - start));
      }
    }
    if (!name.empty()) tag.attributes.emplace_back(std::move(name), std::move(value));
  }
  return tag;
}

const std::string* attribute(const Tag& tag, std::string_view name) {
  for (const auto& [n, v] : tag.attributes)
    if (n == name) return &v;
  return nullptr;
}

}  // namespace

std::vector<Topic> parse_contents(std::string_view hhc, bool* cut) {
  std::vector<Topic> topics;
  *cut = false;
  int depth = 0;
  bool in_object = false;
  Topic topic;
  for (std::size_t at = hhc.find('<'); at != std::string_view::npos; at = hhc.find('<', at)) {
    if (hhc.substr(at, 4) == "<!--") {
      const std::size_t end = hhc.find("-->", at + 4);
      if (end == std::string_view::npos) break;
      at = end + 3;
      continue;
    }
    // The tag runs to the first '>' outside quotes.
    std::size_t end = at + 1;
    char quote = 0;
    for (; end < hhc.size(); ++end) {
      if (quote != 0) {
        if (hhc[end] == quote) quote = 0;
      } else if (hhc[end] == '"' || hhc[end] == '\'') {
        if (hhc[end - 1] == '=' || hhc[end - 1] == ' ') quote = hhc[end];
      } else if (hhc[end] == '>') {
        break;
      }
    }
    const Tag tag = parse_tag(hhc.substr(at + 1, end - at - 1));
    at = end;
    if (tag.name == "ul") {
      depth = std::min(depth + 1, 1000);
    } else if (tag.name == "/ul") {
      depth = std::max(depth - 1, 0);
    } else if (tag.name == "object") {
      const std::string* type = attribute(tag, "type");
      in_object = type != nullptr && same_nocase(*type, "text/sitemap");
      topic = Topic{};
      topic.depth = std::max(depth - 1, 0);
    } else if (tag.name == "param" && in_object) {
      const std::string* name = attribute(tag, "name");
      const std::string* value = attribute(tag, "value");
      if (name == nullptr || value == nullptr) continue;
      // The first Name and the first Local: merged entries repeat them for other places.
      if (same_nocase(*name, "name") && topic.title.empty()) topic.title = *value;
      else if (same_nocase(*name, "local") && topic.local.empty()) topic.local = *value;
    } else if (tag.name == "/object" && in_object) {
      in_object = false;
      if (topic.title.empty() && topic.local.empty()) continue;
      if (topics.size() >= kMaxTopics) {
        *cut = true;
        break;
      }
      topics.push_back(std::move(topic));
    }
  }
  return topics;
}

std::string member_of_local(std::string_view local) {
  while (!local.empty() && (local.front() == ' ' || local.front() == '\t')) local.remove_prefix(1);
  while (!local.empty() && (local.back() == ' ' || local.back() == '\t')) local.remove_suffix(1);
  // A link into a help file: what follows its "::".
  if (const std::size_t sep = local.find("::"); sep != std::string_view::npos) local = local.substr(sep + 2);
  else if (const std::size_t colon = local.find(':'); colon != std::string_view::npos && colon > 1 &&
                                                         local.substr(0, colon).find('/') == std::string_view::npos)
    return {};  // a scheme (http:, mailto:, javascript:); a drive letter ("Z:") has one character
  local = local.substr(0, local.find('#'));
  while (local.starts_with('/')) local.remove_prefix(1);
  return std::string(local);
}

}  // namespace mcpread::readers::chm
