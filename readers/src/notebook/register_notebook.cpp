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
  options.wording = call.request.wording;
  return read_notebook(call.file, options, call.cancel);
}

std::string describe_notebook(const ReadLimits&) {
  return "cells with their outputs, images as images.";
}

// A file named .ipynb whose JSON starts with an object (after a UTF-8 BOM and blanks): a
// notebook has no magic bytes of its own.
std::optional<Sniffed> sniff_notebook(const SniffInput& in) {
  if (in.extension != "ipynb") return std::nullopt;
  const auto b = in.head;
  std::size_t i = b.size() >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF ? 3 : 0;
  while (i < b.size() && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r')) ++i;
  if (i >= b.size() || b[i] != '{') return std::nullopt;
  return Sniffed{"application/x-ipynb+json", "Jupyter notebook"};
}

}  // namespace

bool register_notebook_reader(ReaderRegistry& registry) {
  return registry.add(Reader{
      .kind = FileKind::notebook,
      .article = "a Jupyter notebook",
      .noun = "notebooks",
      .describe = describe_notebook,
      .counts = "cell",
      .extensions = {{"ipynb", "application/x-ipynb+json"}},
      .sniff = sniff_notebook,
      .read = read_as_notebook,
      .resource = resource_text,  // the notebook's JSON source
  });
}

}  // namespace mcpread::readers
