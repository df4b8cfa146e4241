#pragma once
// The two ways a reader's file becomes resources/read contents, for the readers' registrations.
#include "mcpread/readers/outcome.hpp"
#include "mcpread/readers/registry.hpp"

namespace mcpread::readers {

// The file's own text decoded to UTF-8 (byte-order mark dropped, line ends kept, not numbered), at
// most max_output_bytes of it; only what can be shown is read.
ResourceReadResult resource_text(const ResourceCall& call);

// A reader's outcome as contents: its image, audio or PDF blob (with the reader's metadata), and
// with keep_text the first text block (a PDF's page text) after it.
ResourceReadResult resource_from_outcome(ReadOutcome outcome, bool keep_text);

}  // namespace mcpread::readers
