#pragma once
// A help file's table of contents (its .hhc: HTML whose <OBJECT type="text/sitemap"> elements
// name each topic and its file, nested in <UL> lists), read by a tolerant scan rather than an
// HTML parser: the files' HTML is often not well formed, and only these elements matter.
// Internal to the readers library.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace mcpread::readers::chm {

inline constexpr std::size_t kMaxTopics = 100'000;  // topics taken from one table of contents

struct Topic {
  std::string title;  // its Name, entities decoded; may be empty
  std::string local;  // its Local, as written ("html/a.htm#part", "ms-its:x.chm::/a.htm")
  int depth = 0;      // lists it is nested in, 0 at the top
};

// The topics of `hhc` (UTF-8 text), in order, at most kMaxTopics (*cut then true).
std::vector<Topic> parse_contents(std::string_view hhc, bool* cut);

// The member a Local names, as the file's own names are written ("html/a.htm"): the "#part"
// dropped, an "ms-its:...::" or "mk:@MSITStore:...::" prefix and a leading "/" too; empty for a
// link out of the file (http:, mailto:...).
std::string member_of_local(std::string_view local);

}  // namespace mcpread::readers::chm
