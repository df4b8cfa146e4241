#pragma once
// The DjVu reader's calls into djvulibre, each run in a child process: djvulibre crashes on some
// damaged files and decodes in threads of its own that a deadline cannot stop, so a crash or a
// hang costs one read, not the server. What the child finds comes back as a message the server
// checks before use (djvu_message.hpp). On Windows there is no djvulibre: both refuse. Internal to
// the DjVu reader.
#include "mcpread/readers/cancel.hpp"

#include <functional>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace mcpread::readers::djvu {

// The document: its bytes, never its name (djvu_reader.cpp says why).
struct Source {
  std::string_view bytes;
};

struct SurveyedPage {
  int page = 0;
  int width = 0;  // pixels, the page's initial rotation applied
  int height = 0;
  int dpi = 0;
  std::string text;  // lines, paragraphs a blank line apart; empty: no text layer
  std::string why;   // not empty: the page could not be read, and why (a clause)
  // The page was not read in time (djvulibre's deadline passed): a later call reads it again,
  // where a damaged page's `why` is kept.
  bool late = false;
};

struct Survey {
  int pages = 0;
  std::map<std::string, std::string> metadata;  // djvused's set-meta keys: title, author, ...
  std::vector<SurveyedPage> texts;              // the pages asked for, in that order
};

// Opens the document and reads the metadata and the text of the pages `select` picks from the
// page count, but for those in `known`; or why it cannot (a clause: "djvulibre cannot read it:
// ...", "djvulibre crashed reading it (signal 11, ...)").
std::variant<Survey, std::string> survey(const Source& source, const std::function<std::vector<int>(int)>& select,
                                         const std::set<int>& known, const CancelToken& cancel);

// A page drawn as a binary PPM (P6), or why not (a clause).
struct Rendering {
  std::string ppm;
  std::string why;
};
// One page to draw, at width x height pixels.
struct Drawing {
  int page = 0;
  int width = 0;
  int height = 0;
};

// The pages `drawings` names, each drawn at its width x height pixels, all in one child: one
// Rendering per drawing, in order; or why none (a clause: the child crashed, ran out of time...).
std::variant<std::vector<Rendering>, std::string> render(const Source& source, const std::vector<Drawing>& drawings,
                                                         const CancelToken& cancel);

}  // namespace mcpread::readers::djvu
