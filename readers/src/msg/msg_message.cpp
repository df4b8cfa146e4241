#include "msg/msg_message.hpp"

#include "msg/msg_properties.hpp"
#include "msg/msg_rtf.hpp"

#include <algorithm>
#include <set>

namespace mcpread::readers::msg {

namespace {

constexpr std::string_view kRecipientPrefix = "__recip_version1.0_#";
constexpr std::string_view kAttachmentPrefix = "__attach_version1.0_#";
constexpr std::string_view kOutlookMime = "application/vnd.ms-outlook";

// Property ids ([MS-OXPROPS]).
constexpr std::uint16_t kSubject = 0x0037, kClientSubmitTime = 0x0039, kDeliveryTime = 0x0E06;
constexpr std::uint16_t kSenderName = 0x0C1A, kSentRepresentingName = 0x0042;
constexpr std::uint16_t kSenderSmtp = 0x5D01, kSenderEmail = 0x0C1F, kSentRepresentingEmail = 0x0065,
                        kSentRepresentingSmtp = 0x5D02;
constexpr std::uint16_t kTransportHeaders = 0x007D;
constexpr std::uint16_t kDisplayTo = 0x0E04, kDisplayCc = 0x0E03;
constexpr std::uint16_t kBody = 0x1000, kHtml = 0x1013, kRtfCompressed = 0x1009;
constexpr std::uint16_t kCodePage = 0x3FFD, kInternetCodePage = 0x3FDE;
constexpr std::uint16_t kRecipientType = 0x0C15, kDisplayName = 0x3001, kEmailAddress = 0x3003,
                        kSmtpAddress = 0x39FE;
constexpr std::uint16_t kAttachData = 0x3701, kAttachMethod = 0x3705, kLongFilename = 0x3707,
                        kShortFilename = 0x3704, kAttachMime = 0x370E;
constexpr std::uint64_t kAttachOle = 6;  // 5 is an attached message, also a storage

ole2::Path child(const ole2::Path& root, const std::string& name) {
  ole2::Path path = root;
  path.push_back(name);
  return path;
}

// The storages of `root` whose names start with `prefix`, in name order (their numbers).
std::vector<std::string> storages(const ole2::CompoundFile& file, const ole2::Path& root, std::string_view prefix) {
  std::vector<std::string> out;
  for (std::string& name : file.names(root))
    if (std::string_view(name).starts_with(prefix)) out.push_back(std::move(name));
  std::sort(out.begin(), out.end());
  return out;
}

std::string code_page_of(const Properties& message) {
  for (const std::uint16_t id : {kCodePage, kInternetCodePage})
    if (auto cp = message.fixed(id)) return code_page_charset(*cp & 0xFFFFFFFFu);
  return "WINDOWS-1252";
}

// "Name <address>", or whichever of the two there is.
std::string mailbox(const std::optional<std::string>& name, const std::optional<std::string>& address) {
  const bool has_name = name && !name->empty(), has_address = address && !address->empty();
  if (has_name && has_address && *name != *address) return *name + " <" + *address + ">";
  if (has_address) return *address;
  return has_name ? *name : std::string();
}

std::optional<std::string> smtp_like(std::optional<std::string> address) {
  if (address && address->find('@') != std::string::npos) return address;
  return std::nullopt;
}

std::string sender(const Properties& m) {
  std::optional<std::string> name = m.text(kSenderName);
  if (!name || name->empty()) name = m.text(kSentRepresentingName);
  std::optional<std::string> address = m.text(kSenderSmtp);
  for (const std::uint16_t id : {kSenderEmail, kSentRepresentingEmail, kSentRepresentingSmtp})
    if (!address || address->empty()) address = smtp_like(m.text(id));
  return mailbox(name, address);
}

struct Recipients {
  std::vector<std::string> to, cc, bcc;
};

Recipients recipients(const ole2::CompoundFile& file, const ole2::Path& root, const Properties& message,
                      const MsgLimits& limits, mail::Message* m) {
  Recipients out;
  const std::vector<std::string> names = storages(file, root, kRecipientPrefix);
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i == limits.max_recipients) {
      m->cuts.push_back("recipients after the " + std::to_string(limits.max_recipients) + "th");
      break;
    }
    const Properties r(file, child(root, names[i]), 8, message.code_page());
    std::optional<std::string> address = r.text(kSmtpAddress);
    if (!address || address->empty()) address = smtp_like(r.text(kEmailAddress));
    std::string shown = mailbox(r.text(kDisplayName), address);
    if (shown.empty()) continue;
    switch (r.fixed(kRecipientType).value_or(1) & 0xFFFFFFFFu) {
      case 2: out.cc.push_back(std::move(shown)); break;
      case 3: out.bcc.push_back(std::move(shown)); break;
      default: out.to.push_back(std::move(shown));
    }
  }
  return out;
}

// The value of header `name` in the message's Internet headers as received (property 0x007D),
// unfolded; empty when it has none.
std::string transport_header(std::string_view headers, std::string_view name) {
  std::string value;
  bool in = false;
  for (std::size_t at = 0; at < headers.size();) {
    std::size_t end = headers.find('\n', at);
    if (end == std::string_view::npos) end = headers.size();
    std::string_view line = headers.substr(at, end - at);
    at = end + 1;
    if (line.ends_with('\r')) line.remove_suffix(1);
    if (line.empty()) break;  // the end of the headers
    if (line[0] == ' ' || line[0] == '\t') {
      if (in) value += " " + std::string(line.substr(line.find_first_not_of(" \t")));
      continue;
    }
    if (in) return value;
    const std::size_t colon = line.find(':');
    if (colon != name.size()) continue;
    bool same = true;
    for (std::size_t i = 0; i < colon && same; ++i) same = (line[i] | 0x20) == (name[i] | 0x20);
    if (!same) continue;
    in = true;
    const std::size_t start = line.find_first_not_of(" \t", colon + 1);
    value = start == std::string_view::npos ? std::string() : std::string(line.substr(start));
  }
  return value;
}

std::string joined(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& item : items) out += (out.empty() ? "" : ", ") + item;
  return out;
}

// The text body: PR_BODY when there is one, else PR_HTML (made text by the mail reader); a body
// kept only as compressed RTF is named for the RTF reader.
void body(const Properties& m, const MsgLimits& limits, const std::string& shown, mail::Message* message) {
  std::string error;
  std::optional<std::string> text = m.text(kBody, limits.max_stream_bytes);
  if (text && text->find_first_not_of(" \t\r\n") != std::string::npos) {
    message->body = std::move(*text);
    message->body_mime = "text/plain";
  } else if (auto html = m.raw(kHtml, kBinary, limits.max_stream_bytes, &error)) {
    // The HTML's bytes are in the message's Internet code page (its own <meta> may say so too).
    std::string charset = "WINDOWS-1252";
    if (auto cp = m.fixed(kInternetCodePage)) charset = code_page_charset(*cp & 0xFFFFFFFFu);
    else if (auto cp2 = m.fixed(kCodePage)) charset = code_page_charset(*cp2 & 0xFFFFFFFFu);
    message->body = to_utf8(*html, charset);
    message->body_mime = "text/html";
  } else if (auto html_text = m.text(kHtml, limits.max_stream_bytes)) {
    message->body = std::move(*html_text);
    message->body_mime = "text/html";
  } else if (m.raw_size(kRtfCompressed, kBinary)) {
    message->body = "[The body is kept only as RTF: read it as " + shown + "/" + std::string(kRtfBodyName) + ".]";
    message->body_mime = "text/plain";
  }
  if (message->body.size() > limits.max_body_bytes) {
    std::size_t keep = limits.max_body_bytes;
    while (keep > 0 && (static_cast<unsigned char>(message->body[keep]) & 0xC0) == 0x80) --keep;
    message->body.resize(keep);
    message->body_cut = true;
  }
}

// A name that can stand as one component of a path: no slashes or control characters.
std::string path_safe(std::string name) {
  for (char& c : name)
    if (c == '/' || c == '\\' || static_cast<unsigned char>(c) < 0x20) c = '_';
  if (name == "." || name == "..") name.clear();
  return name;
}

}  // namespace

ole2::Path attached_message_root(const MsgAttachment& attachment) {
  return child(attachment.storage, stream_name(kAttachData, kObject));
}

std::vector<MsgAttachment> msg_attachments(const ole2::CompoundFile& file, const ole2::Path& root,
                                           const MsgLimits& limits, bool* cut) {
  const Properties message(file, root, root.empty() ? 32 : 24, "WINDOWS-1252");
  const std::string code_page = code_page_of(message);
  std::vector<MsgAttachment> out;
  std::set<std::string> taken;
  const std::vector<std::string> names = storages(file, root, kAttachmentPrefix);
  *cut = names.size() > limits.max_attachments;
  for (std::size_t i = 0; i < names.size() && i < limits.max_attachments; ++i) {
    const Properties a(file, child(root, names[i]), 8, code_page);
    MsgAttachment attachment;
    attachment.storage = a.storage();
    mail::Attachment& listed = attachment.listed;
    listed.part = i + 1;
    const std::uint64_t method = a.fixed(kAttachMethod).value_or(1) & 0xFFFFFFFFu;
    const bool object = a.has_storage(kAttachData, kObject);
    listed.message = object && method != kAttachOle;
    attachment.ole_object = object && method == kAttachOle;
    std::string name;
    for (const std::uint16_t id : {kLongFilename, kShortFilename, kDisplayName})
      if (name.empty()) name = path_safe(a.text(id, 4096).value_or(std::string()));
    listed.mime = listed.message ? std::string(kOutlookMime) : a.text(kAttachMime, 256).value_or("");
    if (listed.mime.empty()) listed.mime = attachment.ole_object ? "an OLE object" : "application/octet-stream";
    // An unnamed MIME entity (a signed message's multipart/signed) is named so the mail reader reads it.
    const bool mime_entity = listed.mime.starts_with("multipart/") || listed.mime == "message/rfc822";
    const std::string fallback =
        "part-" + std::to_string(i + 1) + (listed.message ? ".msg" : mime_entity ? ".eml" : ".bin");
    if (name.empty() || taken.contains(name)) {
      const std::size_t dot = name.rfind('.');
      name = dot == std::string::npos || dot == 0 ? fallback
                                                  : "part-" + std::to_string(i + 1) + name.substr(dot);
    }
    taken.insert(name);
    listed.name = std::move(name);
    if (!object) listed.size = a.raw_size(kAttachData, kBinary);
    out.push_back(std::move(attachment));
  }
  return out;
}

std::optional<std::string> attachment_data(const ole2::CompoundFile& file, const MsgAttachment& attachment,
                                           const MsgLimits& limits, std::string* error) {
  ole2::Path path = child(attachment.storage, stream_name(kAttachData, kBinary));
  std::optional<std::string> bytes = file.stream(path, limits.max_stream_bytes, error);
  if (!bytes && error->empty()) *error = "the attachment holds no data (it may be a link to a file elsewhere)";
  return bytes;
}

std::optional<std::string> rtf_only_body(const ole2::CompoundFile& file, const ole2::Path& root,
                                         const MsgLimits& limits, std::string* error) {
  const Properties props(file, root, root.empty() ? 32 : 24, "WINDOWS-1252");
  mail::Message probe;
  body(props, limits, "", &probe);
  if (!probe.body.starts_with("[The body is kept only as RTF")) return std::nullopt;
  const std::optional<std::string> compressed = props.raw(kRtfCompressed, kBinary, limits.max_stream_bytes, error);
  if (!compressed) return std::nullopt;
  return decompress_rtf(*compressed, limits.max_stream_bytes, error);
}

mail::Parsed parse_msg(const ole2::CompoundFile& file, const ole2::Path& root, const MsgLimits& limits,
                       const std::string& shown) {
  mail::Parsed parsed;
  const std::vector<std::string> names = root.empty() ? file.names() : file.names(root);
  if (std::find(names.begin(), names.end(), "__properties_version1.0") == names.end()) {
    parsed.error = root.empty() ? "it is an OLE2 file without an Outlook message in it (no __properties_version1.0 "
                                  "stream; another Office format named .msg?)"
                                : "the attached message is damaged (no __properties_version1.0 stream)";
    return parsed;
  }
  Properties props(file, root, root.empty() ? 32 : 24, "WINDOWS-1252");
  props.set_code_page(code_page_of(props));
  mail::Message m;
  // A received message keeps the Internet headers it came with: where the properties name people
  // by Exchange's internal addresses only, those say what was sent.
  const std::string received = props.text(kTransportHeaders, 1u << 20).value_or(std::string());
  const auto add = [&](const char* name, std::string value) {
    if (value.find('@') == std::string::npos) {
      std::string sent = transport_header(received, name);
      if (!sent.empty()) value = std::move(sent);
    }
    if (!value.empty()) m.headers.emplace_back(name, std::move(value));
  };
  add("From", sender(props));
  Recipients r = recipients(file, root, props, limits, &m);
  // Without recipient storages, the display lists (names only) stand in.
  if (r.to.empty() && r.cc.empty() && r.bcc.empty()) {
    if (auto to = props.text(kDisplayTo); to && !to->empty()) r.to.push_back(*to);
    if (auto cc = props.text(kDisplayCc); cc && !cc->empty()) r.cc.push_back(*cc);
  }
  add("To", joined(r.to));
  add("Cc", joined(r.cc));
  if (!r.bcc.empty()) m.headers.emplace_back("Bcc", joined(r.bcc));
  std::string date = transport_header(received, "Date");
  std::optional<std::uint64_t> when = props.fixed(kClientSubmitTime);
  if (!when || *when == 0) when = props.fixed(kDeliveryTime);
  if (date.empty() && when && *when != 0) date = rfc5322_date(*when);
  if (!date.empty()) m.headers.emplace_back("Date", date);
  if (auto subject = props.text(kSubject); subject && !subject->empty()) m.headers.emplace_back("Subject", *subject);
  body(props, limits, shown, &m);
  bool cut = false;
  for (MsgAttachment& a : msg_attachments(file, root, limits, &cut)) m.attachments.push_back(std::move(a.listed));
  if (cut) m.cuts.push_back("attachments after the " + std::to_string(limits.max_attachments) + "th");
  parsed.message = std::move(m);
  return parsed;
}

}  // namespace mcpread::readers::msg
