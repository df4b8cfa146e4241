#pragma once
// A PowerPoint 97-2003 presentation's "PowerPoint Document" stream read into a Deck, one section
// per slide in show order: the slide list found through the current edit's persist directory
// (the "Current User" stream's offset, then each UserEditAtom's), each slide's placeholder text
// from the slide list and its text boxes' from the slide's drawing, its title from the title
// placeholder, its speaker notes from its notes slide. Without a usable edit chain the slide
// list is found by walking the stream. Internal to the readers library.
#include "sections/sections.hpp"

#include <cstddef>
#include <string>
#include <string_view>

namespace mcpread::readers::ppt {

inline constexpr std::size_t kMaxRecordDepth = 32;  // containers nested deeper are not walked

// `document`: the "PowerPoint Document" stream; `current_user`: the "Current User" stream (empty
// when the file has none). False with a sentence in *error: encrypted, or no slide list at all.
bool read_ppt(std::string_view document, std::string_view current_user, sections::Deck* deck, std::string* error);

}  // namespace mcpread::readers::ppt
