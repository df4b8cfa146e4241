#pragma once
// Presentations (PPTX, ODP) and e-books (EPUB) read into a Deck of sections, and read for the
// `read` tool. Internal to the readers library.
#include "mcpread/readers/access.hpp"
#include "slides/sections.hpp"

#include <string>
#include <string_view>

namespace mcpread::readers::sections {

enum class Format { pptx, odp, epub };

// False with a sentence in *error (a part missing, not well-formed, over a limit, encrypted).
bool read_pptx(package::ZipArchive& zip, Deck* deck, std::string* error);
bool read_odp(package::ZipArchive& zip, Deck* deck, std::string* error);
bool read_epub(package::ZipArchive& zip, Deck* deck, std::string* error);

ReadOutcome read_file(const OpenedFile& file, Format format, const Options& options, const CancelToken& cancel);

// The same from bytes in memory (tests, fuzzing); `name` stands for the path in messages.
ReadOutcome read_bytes(std::string_view bytes, std::string_view name, Format format, const Options& options,
                       const CancelToken& cancel);

}  // namespace mcpread::readers::sections
