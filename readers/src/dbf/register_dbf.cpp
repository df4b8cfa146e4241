// The dBASE reader: a .dbf table (dBASE III, IV and 5, FoxPro, Visual FoxPro, a shapefile's
// attributes) as a Markdown table under its field names (row 1), paged by rows as CSV is. The
// bytes decide: a header whose version, date, field descriptors and record length agree (the
// reader then checks the record count against the file's size).
#include "dbf/dbf_header.hpp"
#include "dbf/dbf_table.hpp"
#include "mcpread/readers/registry.hpp"
#include "resource_contents.hpp"

namespace mcpread::readers {

inline constexpr FileKind kDbfKind{"dbf"};

namespace {

constexpr std::string_view kDbfMime = "application/x-dbf";

std::optional<Sniffed> sniff_dbf(const SniffInput& in) {
  std::string error;
  if (!dbf::parse_header(in.head, true, &error)) return std::nullopt;
  return Sniffed{kDbfMime, "dBASE table"};
}

sheets::SheetOptions dbf_options(std::size_t max_output_bytes, const Wording& wording) {
  sheets::SheetOptions options;
  options.max_output_bytes = max_output_bytes;
  options.wording = wording;
  return options;
}

ReadOutcome read_dbf(const ReaderCall& call) {
  sheets::SheetOptions options = dbf_options(call.limits.text.max_output_bytes, call.request.wording);
  if (call.request.offset) options.offset = *call.request.offset;
  options.limit = call.request.limit;
  options.pages = call.request.pages;
  return dbf::read_dbf_file(call.file, options, call.cancel);
}

ResourceReadResult dbf_resource(const ResourceCall& call) {
  return resource_from_outcome(
      dbf::read_dbf_file(call.file, dbf_options(call.limits.text.max_output_bytes, call.wording), call.cancel), true);
}

// The words of the CSV reader's line: the description names them together.
std::string describe_dbf(const ReadLimits&) { return "a Markdown table; row 1 is the header."; }

}  // namespace

bool register_dbf_reader(ReaderRegistry& registry) {
  return registry.add(Reader{
      .kind = kDbfKind,
      .article = "a dBASE table",
      .noun = "dBASE tables",
      .describe = describe_dbf,
      .counts = "row",
      // Not offered as a file_type: the tool list's budget has no room for it, and the header
      // alone decides what a file is (file_type="text" gives the same table).
      .selectable = false,
      .extensions = {{"dbf", kDbfMime}},
      .sniff = sniff_dbf,
      .also_serves = {FileKind::text},
      .read = read_dbf,
      .resource = dbf_resource,
  });
}

}  // namespace mcpread::readers
