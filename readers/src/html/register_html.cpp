// The HTML reader: pages as readable text (headings, lists, links, tables). It serves only its
// own reading: file_type="text" gives the source through the text reader.
#include "html/page.hpp"
#include "mcpread/readers/registry.hpp"
#include "resource_contents.hpp"

namespace mcpread::readers {

inline constexpr FileKind kHtmlKind{"html"};

namespace {

ReadOutcome read_as_html(const ReaderCall& call) {
  html_page::Options options;
  if (call.request.offset) options.offset = *call.request.offset;
  options.limit = call.request.limit.value_or(call.limits.text.limit);
  options.max_output_bytes = call.limits.text.max_output_bytes;
  options.wording = call.request.wording;
  ReadOutcome outcome = html_page::read(call.file, options, call.cancel);
  if (!outcome.is_error) {
    outcome.meta["mime"] = call.classification.mime;
  }
  return outcome;
}

std::string describe_html(const ReadLimits&) {
  return "readable text, tables as Markdown.";
}

}  // namespace

bool register_html_reader(ReaderRegistry& registry) {
  return registry.add(Reader{
      .kind = kHtmlKind,
      .article = "an HTML page",
      .noun = "HTML pages",
      .describe = describe_html,
      .extensions = {{"html", "text/html"}, {"htm", "text/html"}, {"xhtml", "application/xhtml+xml"}},
      .text_based = true,
      .read = read_as_html,
      .resource = resource_text,  // the page's source
  });
}

}  // namespace mcpread::readers
