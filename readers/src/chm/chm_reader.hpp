#pragma once
// The compiled HTML help reader's reads: a help file's topics listed (from its table of contents,
// else its HTML files), paged; a path past the file reads one of its files ("/docs/x.chm/
// intro.htm") with the reader its name calls for: HTML topics as Markdown, pictures as images.
// Internal to the readers library.
#include "chm/chm_contents.hpp"
#include "chm/chm_extract.hpp"
#include "mcpread/readers/access.hpp"
#include "mcpread/readers/file_kind.hpp"
#include "mcpread/readers/read.hpp"

#include <optional>
#include <string>

namespace mcpread::readers::chm {

inline constexpr FileKind kChmKind{"chm"};

// The listing of a help file taken apart (`e`), for `shown`, paged by `request`.
ReadOutcome list_topics(const std::string& shown, const Extracted& e, const ReadRequest& request,
                        const ReadLimits& limits);

// A help file read by the `read` tool: its listing.
ReadOutcome read_chm_file(const OpenedFile& file, const ReadRequest& request, const ReadLimits& limits,
                          const CancelToken& cancel);

// A path past a help file: one of its files.
std::optional<ReadOutcome> read_inside(const Roots& roots, const PathInsideFile& inside, const ReadRequest& request,
                                       const ReadLimits& limits, const CancelToken& cancel);

}  // namespace mcpread::readers::chm
