#pragma once
// Presentations (PPTX, ODP) read into a Deck of sections, one per slide, for the sections engine
// (sections/read.hpp). Internal to the readers library.
#include "sections/read.hpp"

#include <string>

namespace mcpread::readers::slides {

// False with a sentence in *error (a part missing, not well-formed, over a limit, encrypted).
bool read_pptx(package::ZipArchive& zip, sections::Deck* deck, std::string* error);
bool read_odp(package::ZipArchive& zip, sections::Deck* deck, std::string* error);

inline constexpr sections::DeckFormat kPptx{
    "pptx", {"a PowerPoint presentation", {"presentation", "text", "PowerPoint .ppt", "a PowerPoint presentation"}},
    read_pptx};
inline constexpr sections::DeckFormat kOdp{
    "odp", {"an OpenDocument presentation", {"presentation", "text", "PowerPoint .ppt", "an OpenDocument presentation"}},
    read_odp};

}  // namespace mcpread::readers::slides
