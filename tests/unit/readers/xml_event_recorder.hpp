#pragma once
// An XmlHandler that writes down every event, to compare what pugixml and libxml2 deliver for
// the same bytes.
#include "sheets/xml_stream.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace mcpread::test {

// Every event as one line: "<name a=v>", "</name>", "text" (adjacent text joined).
class XmlEventRecorder : public readers::sheets::XmlHandler {
 public:
  std::vector<std::string> events;
  void start(std::string_view local, const readers::sheets::XmlAttrs& a) override {
    std::string e = "<" + std::string(local);
    for (const auto& [k, v] : a.items) e += " " + std::string(k) + "=" + std::string(v);
    events.push_back(e + ">");
  }
  void end(std::string_view local) override { events.push_back("</" + std::string(local) + ">"); }
  void text(std::string_view chunk) override {
    if (!events.empty() && events.back().front() == '"') events.back().insert(events.back().size() - 1, chunk);
    else events.push_back("\"" + std::string(chunk) + "\"");
  }
};

}  // namespace mcpread::test
