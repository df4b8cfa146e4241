#pragma once
// EPUB books read into a Deck of sections, one per chapter, for the sections engine
// (sections/read.hpp). Internal to the readers library.
#include "sections/read.hpp"

#include <string>

namespace mcpread::readers::epub {

// False with a sentence in *error (a part missing, not well-formed, over a limit, DRM-protected).
bool read_epub(package::ZipArchive& zip, sections::Deck* deck, std::string* error);

// An OLE2 compound file met instead is refused in the words the presentation readers use.
inline constexpr sections::DeckFormat kEpub{
    "epub", {"an EPUB book", {"presentation", "text", "PowerPoint .ppt", "an EPUB book"}}, read_epub};

}  // namespace mcpread::readers::epub
