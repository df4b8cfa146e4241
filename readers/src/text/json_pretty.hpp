#pragma once
// Internal to the text reader: a JSON file (above all one-line, minified JSON) streamed as
// pretty-printed lines, two spaces per level as json::dump(2) writes them, without building the
// document: nlohmann's SAX parser reads the file in chunks and each event writes its text.
#include "line_scanner.hpp"
#include "mcpread/readers/access.hpp"
#include "mcpread/readers/cancel.hpp"
#include "mcpread/readers/outcome.hpp"
#include "mcpread/readers/text.hpp"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <functional>
#include <string>
#include <string_view>

namespace mcpread::readers::text_detail {

struct JsonPrettyOptions {
  // Pretty lines outside [first, last] are sent as bare "\n": the line scanner only counts
  // them, so nothing is written (no indentation, no values) for lines nobody will see.
  std::uint64_t first = 1;
  std::uint64_t last = UINT64_MAX;
  std::size_t max_depth = 1000;  // deeper nesting is refused: each level costs every line 2 spaces
};

struct JsonPrettyResult {
  enum class Status { done, stopped, invalid, too_deep, read_error, cancelled };
  Status status = Status::done;
  std::uint64_t byte = 0;  // invalid, too_deep: where in the file (1-based byte count read)
  std::string message;     // invalid: the parser's words, e.g. "syntax error while parsing ..."
  int error = 0;           // read_error: errno
};

// Parses the JSON in the file open on `fd` and hands the pretty text to `sink` in pieces that
// end at line ends; `sink` returns false to stop (status stopped). The text ends with '\n'.
JsonPrettyResult pretty_print_json(int fd, const JsonPrettyOptions& options,
                                   const std::function<bool(std::string_view)>& sink,
                                   const CancelToken& cancel);

// The text reader's JSON path: the pretty lines of `file` from line `offset` on (options.limit of
// them) go to the scanner; nullopt when that went well, else the answer to give (invalid or too
// deeply nested JSON, a read error, a cancellation).
std::optional<ReadOutcome> read_json_lines(const OpenedFile& file, std::uint64_t offset,
                                           const TextOptions& options, LineScanner& scanner,
                                           const CancelToken& cancel);

// ".json" in any case: a long line in such a file gets a pointer to file_type="json".
bool has_json_extension(const std::filesystem::path& path);

}  // namespace mcpread::readers::text_detail
