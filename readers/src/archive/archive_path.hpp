#pragma once
// Reading through an archive: a path that goes on past an archive file names one of its members
// ("/data/bundle.tar.gz/docs/readme.txt"; "/data/a.zip/inner.tar/x.txt" for an archive inside an
// archive). The member's bytes are put in a memory file and read like any file.
#include "mcpread/readers/access.hpp"
#include "mcpread/readers/read.hpp"

#include <optional>

namespace mcpread::readers::archive {

// The answer for `inside` when its file is an archive (a listing, a member read by its reader, or
// a refusal); nullopt when the file is no archive, so that the path's own error stands.
std::optional<ReadOutcome> read_inside(const Roots& roots, const PathInsideFile& inside, const ReadRequest& request,
                                       const ReadLimits& limits, const CancelToken& cancel);

}  // namespace mcpread::readers::archive
