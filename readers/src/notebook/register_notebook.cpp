// The notebook reader: Jupyter cells with their outputs, image outputs as images.
#include "mcpread/readers/notebook.hpp"
#include "mcpread/readers/registry.hpp"
#include "resource_contents.hpp"

namespace mcpread::readers {
namespace {

ReadOutcome read_as_notebook(const ReaderCall& call) {
  NotebookOptions options;
  if (call.request.offset) options.offset = *call.request.offset;
  options.limit = call.request.limit;
  options.max_output_bytes = media_text_cap(call.limits);
  options.image = call.limits.image;
  return read_notebook(call.file, options, call.cancel);
}

std::string describe_notebook(const ReadLimits&) {
  return "- Notebooks: cells with their outputs, images as images; `offset`/`limit` count cells.";
}

}  // namespace

void register_notebook_reader(ReaderRegistry& registry) {
  registry.add(Reader{
      .kind = FileKind::notebook,
      .article = "a Jupyter notebook",
      .noun = "notebooks",
      .describe = describe_notebook,
      .extensions = {{"ipynb", "application/x-ipynb+json"}},
      .read = read_as_notebook,
      .resource = resource_text,  // the notebook's JSON source
  });
}

}  // namespace mcpread::readers
