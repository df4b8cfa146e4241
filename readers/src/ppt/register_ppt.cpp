// The PowerPoint 97-2003 reader: a .ppt, .pps or .pot presentation slide by slide, as PPTX decks
// are answered (titles, text, speaker notes; pictures are not read). Other OLE2 compound files
// (.doc, .xls, .msg) share the magic, so the name decides among them, and the name alone claims
// nothing: only an OLE2 compound file so named is read here.
#include "mcpread/readers/registry.hpp"
#include "package/zip_head.hpp"
#include "ppt/ppt_reader.hpp"
#include "resource_contents.hpp"

#include <algorithm>

namespace mcpread::readers {

inline constexpr FileKind kPptKind{"ppt"};

namespace {

constexpr std::size_t kSlidesPerCall = 50;  // as for PPTX: the output cap stops long decks first

sections::Options ppt_options(std::size_t cap) {
  sections::Options options;
  options.max_output_bytes = cap;
  options.max_images = 0;
  return options;
}

ReadOutcome read_as_ppt(const ReaderCall& call) {
  sections::Options options = ppt_options(media_text_cap(call.limits));
  options.pages = call.request.pages;
  if (call.request.offset) options.offset = *call.request.offset;
  options.max_sections = kSlidesPerCall;
  // `limit` counts slides, as for PPTX.
  if (call.request.limit)
    options.max_sections =
        static_cast<std::size_t>(std::clamp<std::uint64_t>(*call.request.limit, 1, kSlidesPerCall));
  options.wording = call.request.wording;
  ReadOutcome outcome = ppt::read_ppt_file(call.file, options, call.cancel);
  if (!outcome.is_error) outcome.meta["mime"] = call.classification.mime;
  return outcome;
}

// As a resource: the slides' text, all of it up to the text cap.
ResourceReadResult ppt_resource(const ResourceCall& call) {
  sections::Options options = ppt_options(call.limits.text.max_output_bytes);
  options.wording = call.wording;
  return resource_from_outcome(ppt::read_ppt_file(call.file, options, call.cancel), true);
}

// The PPTX line's words, so that the two share one line of the tool description, which has a
// budget (a .ppt's pictures are not read: its answers simply hold none).
std::string describe_ppt(const ReadLimits&) {
  return "slides with title, text and notes, images after each; `limit` caps them.";
}

// An OLE2 compound file named .ppt, .pps or .pot.
std::optional<Sniffed> sniff_ppt(const SniffInput& in) {
  if (in.extension != "ppt" && in.extension != "pps" && in.extension != "pot") return std::nullopt;
  if (!in.zip().ole2) return std::nullopt;
  return Sniffed{"application/vnd.ms-powerpoint", "Microsoft PowerPoint 97-2003 presentation"};
}

}  // namespace

bool register_ppt_reader(ReaderRegistry& registry) {
  return registry.add(Reader{
      .kind = kPptKind,
      .article = "a PowerPoint 97-2003 presentation",
      .noun = "PowerPoint 97-2003 presentations",
      .describe = describe_ppt,
      .sniff = sniff_ppt,
      .also_serves = {FileKind::text},
      .read = read_as_ppt,
      .resource = ppt_resource,
  });
}

}  // namespace mcpread::readers
