// The text reader (lines numbered like cat -n, any charset) and its JSON reading (pretty-printed),
// which file_type="json" asks for: JSON files are otherwise text.
#include "mcpread/readers/registry.hpp"
#include "mcpread/readers/text.hpp"
#include "resource_contents.hpp"
#include "text/line_index.hpp"

namespace mcpread::readers {
namespace {

ReadOutcome read_as_text(const ReaderCall& call) {
  TextOptions options = call.limits.text;
  const ReadRequest& request = call.request;
  if (request.offset) options.offset = *request.offset;
  if (request.limit) options.limit = *request.limit;
  if (!request.encoding.empty()) options.encoding = request.encoding;
  if (request.column) options.column = *request.column;
  options.json = call.kind == FileKind::json;
  options.nowait = request.nowait != 0;
  options.wording = request.wording;
  ReadOutcome outcome = read_text(call.file, options, call.cancel);
  outcome.meta["mime"] = call.classification.mime;
  return outcome;
}

std::string describe_text(const ReadLimits& limits) {
  const TextOptions& t = limits.text;
  return "any charset, numbered like `cat -n`, " + std::to_string(t.limit) +
         " lines from `offset`, or `limit`; lines over " + std::to_string(t.max_line_chars) +
         " characters cut, naming the `column` to read on.";
}

}  // namespace

bool register_text_reader(ReaderRegistry& registry) {
  return registry.add(Reader{
      .kind = FileKind::text,
      .article = "a text file",
      .noun = "text",
      .describe = describe_text,
      .reads_columns = true,
      .options = {limit_option<&ReadLimits::text, &TextOptions::limit>(
                      "--default-limit", "lines returned when `limit` is not given", 1, UINT64_MAX),
                  limit_option<&ReadLimits::text, &TextOptions::max_line_chars>(
                      "--max-line-chars", "characters kept of a longer line", 1, UINT64_MAX),
                  limit_option<&ReadLimits::text, &TextOptions::max_output_bytes>(
                      "--max-output-bytes", "cap on the text of one answer", 1024, UINT64_MAX),
                  limit_option<&ReadLimits::text, &TextOptions::count_lines_max_bytes>(
                      "--count-lines-max-bytes", "count a file's lines only up to this size", 0, UINT64_MAX)},
      .read = read_as_text,
      .resource = resource_text,
      .release = [] { return text_detail::LineIndexCache::instance().release(); },
  });
}

bool register_json_reader(ReaderRegistry& registry) {
  return registry.add(Reader{
      .kind = FileKind::json,
      .article = "a JSON file",
      .noun = "JSON",
      .reads_columns = true,
      .read = read_as_text,
  });
}

}  // namespace mcpread::readers
