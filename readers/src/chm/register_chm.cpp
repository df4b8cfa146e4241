// The compiled HTML help reader: Microsoft's .chm help files through CHMLib, run in a child
// process. A read of the file lists its topics (its table of contents, else its HTML files) with
// the path that reads each; "/docs/x.chm/intro.htm" reads a topic as the HTML reader does (as
// Markdown), a picture as an image. The listing alone answers a read of the file: a topic is
// read at its own path, so that `offset` pages one thing per path.
#include "byte_signatures.hpp"
#include "chm/chm_reader.hpp"
#include "mcpread/readers/registry.hpp"

namespace mcpread::readers {
namespace {

using chm::kChmKind;

std::string describe_chm(const ReadLimits&) { return "topics listed; read one as <file path>/<topic path>."; }

// "ITSF" and version 3, the only one written.
std::optional<Sniffed> sniff_chm(const SniffInput& in) {
  if (!sig::has_at(in.head, 0, std::string_view("ITSF\x03\0\0\0", 8))) return std::nullopt;
  return Sniffed{"application/vnd.ms-htmlhelp", "Microsoft compiled HTML help"};
}

}  // namespace

bool register_chm_reader(ReaderRegistry& registry) {
  return registry.add(Reader{
      .kind = kChmKind,
      .article = "a compiled HTML help file",
      .noun = "compiled HTML help files",
      .describe = describe_chm,
      .counts = "entry",
      .extensions = {{"chm", "application/vnd.ms-htmlhelp"}},
      .sniff = sniff_chm,
      .read = [](const ReaderCall& call) { return chm::read_chm_file(call.file, call.request, call.limits, call.cancel); },
      .read_inside = chm::read_inside,
  });
}

}  // namespace mcpread::readers
