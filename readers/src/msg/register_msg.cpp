// The Outlook message reader: a .msg (an OLE2 compound file, [MS-OXMSG]) answered as an .eml is
// by the mail reader: headers, text body paged by lines, attachments each read through a path
// past the message. Other OLE2 compound files (.doc, .xls, .ppt) share the magic, so the name
// decides among them, and the name alone claims nothing: other files named .msg (message
// catalogs, plain text) are read as what they are.
#include "mail/mail_reader.hpp"
#include "mcpread/readers/registry.hpp"
#include "msg/msg_reader.hpp"
#include "package/zip_head.hpp"
#include "resource_contents.hpp"

namespace mcpread::readers {
namespace {

using msg::kMsgKind;

ReadOutcome read_as_msg(const ReaderCall& call) {
  ReadOutcome outcome = msg::read_msg_file(call.file, call.request, call.limits, call.cancel);
  if (!outcome.is_error) outcome.meta["mime"] = call.classification.mime;
  return outcome;
}

// As a resource: the answer's text (headers, body, attachments), as far as one page goes.
ResourceReadResult msg_resource(const ResourceCall& call) {
  ReadRequest request;
  request.wording = call.wording;
  ReadLimits limits = call.limits;
  limits.text.limit = UINT32_MAX;
  return resource_from_outcome(msg::read_msg_file(call.file, request, limits, call.cancel), true);
}

// An OLE2 compound file named .msg.
std::optional<Sniffed> sniff_msg(const SniffInput& in) {
  if (in.extension != "msg" || !in.zip().ole2) return std::nullopt;
  return Sniffed{"application/vnd.ms-outlook", "Outlook message"};
}

}  // namespace

bool register_msg_reader(ReaderRegistry& registry) {
  return registry.add(Reader{
      .kind = kMsgKind,
      .article = "an Outlook message",
      .noun = "Outlook messages",
      .describe = mail::describe_mail,  // one line of the tool description for both
      .sniff = sniff_msg,
      .also_serves = {FileKind::text},
      .read = read_as_msg,
      .resource = msg_resource,
      .read_inside = msg::read_inside,
  });
}

}  // namespace mcpread::readers
