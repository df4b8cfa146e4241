#pragma once
// The read pipeline from an opened file on: classify it, choose its reader, read. For the files
// the access layer opened and for archive members handed over in memory files.
#include "mcpread/readers/read.hpp"

namespace mcpread::readers {

ReadOutcome read_opened(const OpenedFile& file, const ReadRequest& request, const ReadLimits& limits,
                        const CancelToken& cancel);

}  // namespace mcpread::readers
