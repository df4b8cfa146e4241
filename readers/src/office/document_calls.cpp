#include "office/document_calls.hpp"

#include "resource_contents.hpp"

namespace mcpread::readers::office {

ReadOutcome read_call(const ReaderCall& call, DocumentFileReader read, bool images) {
  OfficeOptions options;
  options.max_output_bytes = media_text_cap(call.limits);
  options.image = call.limits.image;
  if (!images) options.max_images = 0;
  if (call.request.offset) options.offset = *call.request.offset;
  options.limit = call.request.limit;
  options.wording = call.request.wording;
  ReadOutcome outcome = read(call.file, options, call.cancel);
  if (!outcome.is_error) outcome.meta["mime"] = call.classification.mime;
  return outcome;
}

ResourceReadResult resource_call(const ResourceCall& call, DocumentFileReader read) {
  OfficeOptions options;
  options.max_output_bytes = call.limits.text.max_output_bytes;
  options.max_images = 0;
  options.wording = call.wording;
  return resource_from_outcome(read(call.file, options, call.cancel), true);
}

}  // namespace mcpread::readers::office
