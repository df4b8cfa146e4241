#pragma once
// The `read` and resources/read entry points of the readers whose files become an office
// Document read whole (RTF, FictionBook, Word 97-2003): the call's options made once here, the
// file read by the reader's own function. Internal to the readers library.
#include "mcpread/readers/registry.hpp"
#include "office/reader.hpp"

namespace mcpread::readers::office {

// A reader's file function: the answer for `file` with `options`.
using DocumentFileReader = ReadOutcome (*)(const OpenedFile&, const OfficeOptions&, const CancelToken&);

// A `read` call: `offset`/`limit` as paragraphs, the media answer's text cap, images after their
// paragraph unless `images` is false; the answer's meta names the file's MIME type.
ReadOutcome read_call(const ReaderCall& call, DocumentFileReader read, bool images = true);

// As a resource: the text (all of it up to the text cap), without images.
ResourceReadResult resource_call(const ResourceCall& call, DocumentFileReader read);

}  // namespace mcpread::readers::office
