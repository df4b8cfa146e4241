// The CSV reader: comma-, tab-, semicolon- or bar-separated values as a Markdown table under the
// header row, its delimiter, header and charset detected; `offset`/`limit` page rows, which are
// records (a quoted line break stays in its cell). file_type="text" gives the source's lines.
#include "csv/csv_reader.hpp"
#include "csv/row_marks.hpp"
#include "mcpread/common/ascii.hpp"
#include "mcpread/readers/registry.hpp"
#include "resource_contents.hpp"

namespace mcpread::readers {

inline constexpr FileKind kCsvKind{"csv"};

namespace {

ReadOutcome read_as_csv(const ReaderCall& call) {
  csv::CsvOptions options;
  const ReadRequest& request = call.request;
  options.offset = request.offset.value_or(0);
  options.limit = request.limit.value_or(call.limits.text.limit);
  options.max_output_bytes = call.limits.text.max_output_bytes;
  options.count_max_bytes = call.limits.text.count_lines_max_bytes;
  options.encoding = request.encoding;
  const std::string extension = call.file.path.extension().string();
  if (!extension.empty()) options.extension = common::ascii_lower(std::string_view(extension).substr(1));
  options.wording = request.wording;
  ReadOutcome outcome = csv::read_csv(call.file, options, call.cancel);
  outcome.meta["mime"] = call.classification.mime;
  return outcome;
}

std::string describe_csv(const ReadLimits&) {
  return "a Markdown table; row 1 is the header.";
}

}  // namespace

bool register_csv_reader(ReaderRegistry& registry) {
  return registry.add(Reader{
      .kind = kCsvKind,
      .article = "a CSV file",
      .noun = "CSV/TSV tables",
      .describe = describe_csv,
      .counts = "row",
      .extensions = {{"csv", "text/csv"}, {"tsv", "text/tab-separated-values"}, {"tab", "text/tab-separated-values"}},
      .text_based = true,
      .read = read_as_csv,
      .resource = resource_text,  // the file's source
      .release = csv::RowMarksCache::release,
  });
}

}  // namespace mcpread::readers
