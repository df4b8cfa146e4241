#pragma once
// A zip-based format read into a Deck of sections (presentations, e-books) and rendered by the
// sections engine: the package opened (package/open.hpp), the Deck kept in the PartCache between
// calls, and the options of a `read` call or a resource read. Internal to the readers library.
#include "mcpread/readers/access.hpp"
#include "mcpread/readers/registry.hpp"
#include "package/open.hpp"
#include "sections/sections.hpp"

#include <cstddef>
#include <string>
#include <string_view>

namespace mcpread::readers::sections {

// One format whose packages are read into a Deck.
struct DeckFormat {
  std::string_view name;      // "pptx": what its Decks are called in the PartCache
  package::Expected expected;  // how its refusals name it
  // Reads the package into *deck; false with a sentence in *error (a part missing, not
  // well-formed, over a limit, encrypted).
  bool (*read)(package::ZipArchive& zip, Deck* deck, std::string* error) = nullptr;
};

ReadOutcome read_file(const OpenedFile& file, const DeckFormat& format, const Options& options,
                      const CancelToken& cancel);

// The same from bytes in memory (tests, fuzzing); `name` stands for the path in messages.
ReadOutcome read_bytes(std::string_view bytes, std::string_view name, const DeckFormat& format, const Options& options,
                       const CancelToken& cancel);

// The options of a `read` call for any reader the sections engine renders: `pages`, `offset` and
// `limit` (sections) as asked, at most `per_call` sections (0: no such cap), no images for
// file_type="text"; of a resource read: the text up to the text cap, no images.
Options call_options(const ReaderCall& call, std::size_t per_call);
Options resource_options(const ResourceCall& call);

// A `read` call: `pages`, `offset` and `limit` (sections) as asked, at most `per_call` sections
// (0: no such cap), no images for file_type="text".
ReadOutcome read_call(const ReaderCall& call, const DeckFormat& format, std::size_t per_call);

// As a resource: the text (all of it up to the text cap), without images.
ResourceReadResult read_as_resource(const ResourceCall& call, const DeckFormat& format);

}  // namespace mcpread::readers::sections
