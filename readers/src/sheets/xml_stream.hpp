#pragma once
// XML read as a stream of events with libxml2's SAX2 push parser: a spreadsheet's rows arrive
// chunk by chunk from the zip and are parsed as they come, so a sheet of a million rows is never
// held whole. libxml2 is loaded with dlopen on first use, as for HTML. Hostile input is refused:
// a DOCTYPE stops the parser (office parts never carry one, and with it go entity expansion and
// external entities), no entity is substituted, nothing is fetched, and nesting is bounded.
// Internal to the readers library.
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mcpread::readers::sheets {

// An element's attributes by local name (prefixes are the writer's choice).
struct XmlAttrs {
  std::vector<std::pair<std::string_view, std::string_view>> items;
  std::string_view get(std::string_view local) const {
    for (const auto& [k, v] : items)
      if (k == local) return v;
    return {};
  }
};

class XmlHandler {
 public:
  virtual ~XmlHandler() = default;
  virtual void start(std::string_view local, const XmlAttrs& attrs) = 0;
  virtual void end(std::string_view local) = 0;
  virtual void text(std::string_view chunk) = 0;  // character data, possibly in several pieces
};

class XmlStream {
 public:
  static constexpr int kMaxNesting = 100;
  // nullptr with a sentence in *error when libxml2 cannot be loaded or started.
  static std::unique_ptr<XmlStream> create(XmlHandler& handler, std::string_view part, std::string* error);
  ~XmlStream();
  XmlStream(const XmlStream&) = delete;
  XmlStream& operator=(const XmlStream&) = delete;

  // Parses the next piece (`last` for the end of the document). False once the parser stopped:
  // on an error (error() says which) or because stop() was called.
  bool feed(std::string_view chunk, bool last);
  // Called from a handler: no further event is delivered, feed() returns false.
  void stop();
  bool stopped_by_handler() const { return stopped_; }
  // A sentence naming the part ("\"xl/worksheets/sheet1.xml\" is not well-formed XML (...)");
  // empty when there was no error.
  const std::string& error() const { return error_; }

 private:
  struct Impl;
  explicit XmlStream(std::unique_ptr<Impl> impl);
  friend struct Impl;
  std::unique_ptr<Impl> impl_;
  std::string error_;
  bool stopped_ = false;
};

}  // namespace mcpread::readers::sheets
