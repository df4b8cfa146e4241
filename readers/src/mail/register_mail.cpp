// The mail reader: e-mail messages (.eml, RFC 5322/MIME) and mbox mailboxes, through GMime 3. A
// message gives its headers, its text body paged by lines and its attachments, each read through
// a path past the message; a mailbox lists its messages, each read as <mailbox path>/<number>.
// file_type="text" gives the MIME source.
#include "mail/mail_reader.hpp"
#include "mcpread/readers/registry.hpp"
#include "resource_contents.hpp"

namespace mcpread::readers {
namespace {

using mail::kMailKind;

ReadOutcome read_as_mail(const ReaderCall& call) {
  ReadOutcome outcome = mail::read_mail_file(call.file, call.request, call.limits, call.cancel);
  if (!outcome.is_error) outcome.meta["mime"] = call.classification.mime;
  return outcome;
}

bool header_line(std::string_view line) {
  const std::size_t colon = line.find(':');
  if (colon == 0 || colon == std::string_view::npos) return false;
  for (char c : line.substr(0, colon))
    if (c <= ' ' || c > '~') return false;
  return true;
}

// Files without an extension (a mail spool, "Inbox"): an mbox by its envelope line followed by a
// header, a message by its first lines being headers among which From: and Date: or Subject:.
// Named files keep what their names promise (a .txt message is read with file_type="mail").
std::optional<Sniffed> sniff_mail(const SniffInput& in) {
  if (!in.extension.empty() || !in.clean_text) return std::nullopt;
  const std::string_view head(reinterpret_cast<const char*>(in.head.data()), in.head.size());
  std::size_t at = 0;
  bool envelope = false, from = false, other = false;
  for (int n = 0; n < 40 && at < head.size(); ++n) {
    std::size_t end = head.find('\n', at);
    if (end == std::string_view::npos) break;
    std::string_view line = head.substr(at, end - at);
    if (line.ends_with('\r')) line.remove_suffix(1);
    at = end + 1;
    if (n == 0 && line.starts_with("From ") && line.find(':') != std::string_view::npos) {
      envelope = true;
      continue;
    }
    if (line.empty()) break;
    if (line[0] == ' ' || line[0] == '\t') continue;  // a folded header's next line
    if (!header_line(line)) return std::nullopt;
    const std::string_view name = line.substr(0, line.find(':'));
    auto is = [&name](std::string_view want) {
      if (name.size() != want.size()) return false;
      for (std::size_t i = 0; i < want.size(); ++i)
        if ((name[i] | 0x20) != (want[i] | 0x20)) return false;
      return true;
    };
    from = from || is("from");
    other = other || is("date") || is("subject") || is("message-id");
  }
  if (!from || !other) return std::nullopt;
  if (envelope) return Sniffed{"application/mbox", "mbox mailbox", false};
  return Sniffed{"message/rfc822", "e-mail message", false};
}

}  // namespace

bool register_mail_reader(ReaderRegistry& registry) {
  return registry.add(Reader{
      .kind = kMailKind,
      .article = "an e-mail message",
      .noun = "e-mail messages and mailboxes",
      .describe = mail::describe_mail,
      .extensions = {{"eml", "message/rfc822"}, {"mbox", "application/mbox"}, {"mbx", "application/mbox"}},
      .sniff = sniff_mail,
      .text_based = true,
      .read = read_as_mail,
      .resource = resource_text,  // the MIME source
      .read_inside = mail::read_inside,
      .release = mail::release_mbox_indexes,
  });
}

namespace mail {
std::string describe_mail(const ReadLimits&) {
  return "headers, text body, attachments as <message path>/<name>; mbox messages as <path>/<n>.";
}
}  // namespace mail

}  // namespace mcpread::readers
