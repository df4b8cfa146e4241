// GMime's message objects walked into mail::Message: the body picked as a mail client picks it,
// every other leaf part (and every attached message) named once, in order, as an attachment.
#include "mail/mail_message.hpp"

#ifndef _WIN32
#include "mail/gmime_api.hpp"
#include "mcpread/readers/utf8.hpp"

#include <unistd.h>

#include <algorithm>
#include <set>

namespace mcpread::readers::mail {
namespace {

using gmime::Api;
using gmime::Ref;

std::string lower(const char* s) {
  std::string out = s != nullptr ? s : "";
  for (char& c : out) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  return out;
}

std::string mime_of(const Api& a, GMimeObject* object) {
  GMimeContentType* type = a.object_get_content_type(object);
  if (type == nullptr) return "text/plain";  // RFC 2045's default
  return lower(a.content_type_get_media_type(type)) + "/" + lower(a.content_type_get_media_subtype(type));
}

bool disposed_as_attachment(const Api& a, GMimeObject* object) {
  GMimeContentDisposition* d = a.object_get_content_disposition(object);
  return d != nullptr && a.disposition_is_attachment(d);
}

// The extension an unnamed part's name gets from its type.
std::string_view extension_for(std::string_view mime) {
  static constexpr std::pair<std::string_view, std::string_view> kKnown[] = {
      {"text/plain", "txt"},        {"text/html", "html"},        {"message/rfc822", "eml"},
      {"message/global", "eml"},    {"text/calendar", "ics"},     {"text/csv", "csv"},
      {"application/pdf", "pdf"},   {"image/png", "png"},         {"image/jpeg", "jpg"},
      {"image/gif", "gif"},         {"application/zip", "zip"},   {"application/json", "json"},
      {"text/markdown", "md"},      {"application/rtf", "rtf"},   {"text/rtf", "rtf"}};
  for (const auto& [type, ext] : kKnown)
    if (type == mime) return ext;
  return "bin";
}

// A file name as a name: what follows its last slash or backslash, control characters dropped.
std::string plain_name(const char* given) {
  std::string name = utf8::sanitized(given != nullptr ? given : "");
  if (const std::size_t slash = name.find_last_of("/\\"); slash != std::string::npos) name.erase(0, slash + 1);
  std::erase_if(name, [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7F; });
  if (name == "." || name == "..") name.clear();
  return name;
}

class Walk {
 public:
  Walk(const Api& a, const MailLimits& limits) : a_(a), limits_(limits) {}

  // The part the body is read from: text/plain or text/html not disposed as an attachment,
  // through the first part of other multiparts and the alternatives of multipart/alternative
  // (text/plain first).
  GMimeObject* find_body(GMimeObject* object, std::size_t depth) {
    if (object == nullptr || depth > limits_.max_depth) return nullptr;
    if (a_.is(object, a_.multipart_get_type)) {
      auto* multipart = reinterpret_cast<GMimeMultipart*>(object);
      const int count = std::min(a_.multipart_get_count(multipart), static_cast<int>(limits_.max_parts));
      if (count <= 0) return nullptr;
      if (mime_of(a_, object) != "multipart/alternative") return find_body(a_.multipart_get_part(multipart, 0), depth + 1);
      GMimeObject* html = nullptr;
      for (int i = 0; i < count; ++i) {
        GMimeObject* found = find_body(a_.multipart_get_part(multipart, i), depth + 1);
        if (found != nullptr && mime_of(a_, found) == "text/plain") return found;
        if (html == nullptr) html = found;
      }
      return html;
    }
    if (!a_.is(object, a_.text_part_get_type) || disposed_as_attachment(a_, object)) return nullptr;
    const std::string mime = mime_of(a_, object);
    return mime == "text/plain" || mime == "text/html" ? object : nullptr;
  }

  // Every part but the body and its alternatives, in order; `visit` sees each attachment with
  // its part object. Returns false when the walk was stopped by a limit.
  template <class Visit>
  void attachments(GMimeObject* object, GMimeObject* body, Message& out, Visit&& visit) {
    body_ = body;
    walk(object, 0, false, out, visit);
  }

 private:
  bool holds_body(GMimeObject* object, std::size_t depth) {
    if (object == body_) return true;
    if (depth > limits_.max_depth || !a_.is(object, a_.multipart_get_type)) return false;
    auto* multipart = reinterpret_cast<GMimeMultipart*>(object);
    const int count = std::min(a_.multipart_get_count(multipart), static_cast<int>(limits_.max_parts));
    for (int i = 0; i < count; ++i)
      if (holds_body(a_.multipart_get_part(multipart, i), depth + 1)) return true;
    return false;
  }

  void cut(std::string what) {
    if (std::find(cuts_.begin(), cuts_.end(), what) == cuts_.end()) cuts_.push_back(std::move(what));
  }

  template <class Visit>
  void walk(GMimeObject* object, std::size_t depth, bool among_alternatives, Message& out, Visit& visit) {
    if (object == nullptr) return;
    if (depth > limits_.max_depth) return cut("parts nested over " + std::to_string(limits_.max_depth) + " levels deep");
    if (a_.is(object, a_.multipart_get_type)) {
      auto* multipart = reinterpret_cast<GMimeMultipart*>(object);
      const bool alternatives = among_alternatives ||
                                (mime_of(a_, object) == "multipart/alternative" && holds_body(object, depth));
      const int count = a_.multipart_get_count(multipart);
      for (int i = 0; i < count; ++i) {
        if (seen_ >= limits_.max_parts) return cut("parts after the " + std::to_string(limits_.max_parts) + "th");
        walk(a_.multipart_get_part(multipart, i), depth + 1, alternatives, out, visit);
      }
      return;
    }
    const std::size_t number = ++seen_;
    if (object == body_) return;
    const std::string mime = mime_of(a_, object);
    const bool message = a_.is(object, a_.message_part_get_type);
    // The other forms of the body (its HTML beside the plain text) are the body, not attachments.
    if (among_alternatives && !message && mime.starts_with("text/") && !disposed_as_attachment(a_, object)) return;
    if (out.attachments.size() >= limits_.max_attachments)
      return cut("attachments after the " + std::to_string(limits_.max_attachments) + "th");
    Attachment attachment;
    attachment.mime = mime;
    attachment.part = number;
    attachment.message = message;
    std::string name = a_.is(object, a_.part_get_type) ? plain_name(a_.part_get_filename(reinterpret_cast<GMimePart*>(object))) : "";
    if (name.empty() || name.starts_with("part-") || !names_.insert(lower(name.c_str())).second)
      name = "part-" + std::to_string(number) + "." + std::string(extension_for(mime));
    attachment.name = std::move(name);
    out.attachments.push_back(std::move(attachment));
    visit(out.attachments.back(), object);
  }

  const Api& a_;
  const MailLimits& limits_;
  GMimeObject* body_ = nullptr;
  std::size_t seen_ = 0;
  std::set<std::string> names_;

 public:
  std::vector<std::string> cuts_;
};

// The decoded bytes of a leaf part, or a message part's message as written.
std::string decoded(const Api& a, GMimeObject* object) {
  Ref<GMimeStream> stream(&a, a.stream_mem_new());
  if (a.is(object, a.message_part_get_type)) {
    GMimeMessage* inner = a.message_part_get_message(reinterpret_cast<GMimeMessagePart*>(object));
    if (inner != nullptr) a.object_write_to_stream(reinterpret_cast<GMimeObject*>(inner), nullptr, stream.get());
  } else if (a.is(object, a.part_get_type)) {
    GMimeDataWrapper* content = a.part_get_content(reinterpret_cast<GMimePart*>(object));
    if (content != nullptr) a.data_wrapper_write_to_stream(content, stream.get());
  }
  GByteArray* array = a.stream_mem_get_byte_array(reinterpret_cast<GMimeStreamMem*>(stream.get()));
  return array != nullptr ? std::string(reinterpret_cast<const char*>(array->data), array->len) : std::string();
}

std::uint64_t decoded_size(const Api& a, GMimeObject* object) {
  Ref<GMimeStream> counter(&a, a.stream_null_new());
  if (a.is(object, a.message_part_get_type)) {
    GMimeMessage* inner = a.message_part_get_message(reinterpret_cast<GMimeMessagePart*>(object));
    if (inner != nullptr) a.object_write_to_stream(reinterpret_cast<GMimeObject*>(inner), nullptr, counter.get());
  } else if (a.is(object, a.part_get_type)) {
    GMimeDataWrapper* content = a.part_get_content(reinterpret_cast<GMimePart*>(object));
    if (content != nullptr) a.data_wrapper_write_to_stream(content, counter.get());
  }
  const gint64 n = a.stream_length(counter.get());
  return n > 0 ? static_cast<std::uint64_t>(n) : 0;
}

std::string addresses(const Api& a, InternetAddressList* list) {
  if (list == nullptr || a.address_list_length(list) <= 0) return {};
  char* text = a.address_list_to_string(list, nullptr, FALSE);
  std::string out = utf8::sanitized(text != nullptr ? text : "");
  a.free(text);
  return out;
}

// The message in `bytes`, parsed; null with *error set when GMime is missing or finds none.
GMimeMessage* parsed(const Api& a, std::string_view bytes, const MailLimits& limits, std::string* error) {
  if (bytes.size() > limits.max_message_bytes) {
    *error = "the message is over the " + std::to_string(limits.max_message_bytes >> 20) + " MiB read at most";
    return nullptr;
  }
  Ref<GMimeStream> stream(&a, a.stream_mem_new_with_buffer(bytes.data(), bytes.size()));
  Ref<GMimeParser> parser(&a, a.parser_new_with_stream(stream.get()));
  GMimeMessage* message = a.parser_construct_message(parser.get(), nullptr);
  if (message == nullptr) *error = "GMime finds no Internet message in it";
  return message;
}

}  // namespace

Parsed parse_message(std::string_view bytes, const MailLimits& limits) {
  Parsed result;
  const Api* a = gmime::api(&result.error);
  if (a == nullptr) return result;
  Ref<GMimeMessage> message(a, parsed(*a, bytes, limits, &result.error));
  if (message.get() == nullptr) return result;
  Message& out = result.message.emplace();
  auto header = [&](std::string name, std::string value) {
    if (!value.empty()) out.headers.emplace_back(std::move(name), utf8::sanitized(value));
  };
  auto* object = reinterpret_cast<GMimeObject*>(message.get());
  header("From", addresses(*a, a->message_get_from(message.get())));
  header("To", addresses(*a, a->message_get_addresses(message.get(), GMIME_ADDRESS_TYPE_TO)));
  header("Cc", addresses(*a, a->message_get_addresses(message.get(), GMIME_ADDRESS_TYPE_CC)));
  header("Reply-To", addresses(*a, a->message_get_reply_to(message.get())));
  const char* date = a->object_get_header(object, "Date");
  header("Date", date != nullptr ? date : "");
  const char* subject = a->message_get_subject(message.get());
  header("Subject", subject != nullptr ? subject : "");

  Walk walk(*a, limits);
  GMimeObject* top = a->message_get_mime_part(message.get());
  GMimeObject* body = walk.find_body(top, 0);
  if (body != nullptr) {
    char* text = a->text_part_get_text(reinterpret_cast<GMimeTextPart*>(body));
    out.body = utf8::sanitized(text != nullptr ? text : "");
    a->free(text);
    out.body_cut = out.body.size() > limits.max_body_bytes;
    out.body.resize(utf8::fit_bytes(out.body, limits.max_body_bytes));
    out.body_mime = mime_of(*a, body);
  }
  walk.attachments(top, body, out, [&](Attachment& attachment, GMimeObject* part) {
    attachment.size = decoded_size(*a, part);
  });
  out.cuts = std::move(walk.cuts_);
  return result;
}

PartBytes attachment_bytes(std::string_view bytes, std::string_view name, const MailLimits& limits) {
  PartBytes result;
  const Api* a = gmime::api(&result.error);
  if (a == nullptr) return result;
  Ref<GMimeMessage> message(a, parsed(*a, bytes, limits, &result.error));
  if (message.get() == nullptr) return result;
  Walk walk(*a, limits);
  GMimeObject* top = a->message_get_mime_part(message.get());
  Message listed;
  walk.attachments(top, walk.find_body(top, 0), listed, [&](Attachment& attachment, GMimeObject* part) {
    if (result.bytes || attachment.name != name) return;
    result.bytes = decoded(*a, part);
    attachment.size = result.bytes->size();
    result.attachment = attachment;
  });
  if (!result.bytes) {
    result.error = "the message has no attachment named " + std::string(name);
    for (std::size_t i = 0; i < listed.attachments.size() && i < 10; ++i)
      result.error += (i == 0 ? " (its attachments: " : ", ") + listed.attachments[i].name;
    if (!listed.attachments.empty()) result.error += listed.attachments.size() > 10 ? ", …)" : ")";
    else result.error += " (it has none)";
  }
  return result;
}

MboxScan scan_mbox(int fd, std::size_t max_entries, const CancelToken& cancel) {
  MboxScan scan;
  const Api* a = gmime::api(&scan.error);
  if (a == nullptr) return scan;
  const int own = ::dup(fd);
  if (own < 0) {
    scan.error = "its descriptor cannot be duplicated";
    return scan;
  }
  Ref<GMimeStream> stream(a, a->stream_fs_new(own));  // closes `own`
  Ref<GMimeParser> parser(a, a->parser_new_with_stream(stream.get()));
  a->parser_set_format(parser.get(), GMIME_FORMAT_MBOX);
  while (!a->parser_eos(parser.get()) && !cancel.cancelled()) {
    if (scan.entries.size() >= max_entries) {
      scan.cut = true;
      break;
    }
    Ref<GMimeMessage> message(a, a->parser_construct_message(parser.get(), nullptr));
    if (message.get() == nullptr) break;
    MboxEntry entry;
    entry.offset = static_cast<std::uint64_t>(std::max<gint64>(0, a->parser_get_mbox_marker_offset(parser.get())));
    const gint64 end = a->parser_tell(parser.get());
    entry.length = end > static_cast<gint64>(entry.offset) ? static_cast<std::uint64_t>(end) - entry.offset : 0;
    entry.from = addresses(*a, a->message_get_from(message.get()));
    const char* date = a->object_get_header(reinterpret_cast<GMimeObject*>(message.get()), "Date");
    entry.date = utf8::sanitized(date != nullptr ? date : "");
    const char* subject = a->message_get_subject(message.get());
    entry.subject = utf8::sanitized(subject != nullptr ? subject : "");
    scan.entries.push_back(std::move(entry));
  }
  if (scan.entries.empty() && scan.error.empty()) scan.error = "GMime finds no message in it (an mbox starts with a \"From \" line)";
  return scan;
}

}  // namespace mcpread::readers::mail

#else  // _WIN32

namespace mcpread::readers::mail {
namespace {
// GMime is not in the Windows bundle (cmake/windows-readers.cmake): said as it is.
constexpr const char* kNoGmime =
    "the Windows build of mcp-read does not include GMime, which reads e-mail; read the file on Linux, or "
    "with file_type=\"text\" for its MIME source";
}  // namespace
Parsed parse_message(std::string_view, const MailLimits&) { return {std::nullopt, kNoGmime}; }
PartBytes attachment_bytes(std::string_view, std::string_view, const MailLimits&) {
  return {std::nullopt, std::nullopt, kNoGmime};
}
MboxScan scan_mbox(int, std::size_t, const CancelToken&) { return {{}, false, kNoGmime}; }
}  // namespace mcpread::readers::mail

#endif
