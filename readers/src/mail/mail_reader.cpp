// A message as a model reads it: the headers that matter, the text body (an HTML-only body made
// text by the HTML reader's conversion), then its attachments with the path that reads each.
// An mbox lists its messages, each read by its number after the mailbox's path.
#include "mail/mail_reader.hpp"

#include "file_io.hpp"
#include "html/html_text.hpp"
#include "human_size.hpp"
#include "lru_cache.hpp"
#include "mcpread/readers/utf8.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace mcpread::readers::mail {
namespace {

std::string n2s(std::uint64_t v) { return std::to_string(v); }
std::string plural(std::uint64_t n, std::string_view one, std::string_view many) {
  return n2s(n) + " " + std::string(n == 1 ? one : many);
}

std::vector<std::string_view> lines_of(std::string_view text) {
  std::vector<std::string_view> lines;
  for (std::size_t at = 0; at < text.size();) {
    std::size_t end = text.find('\n', at);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(at, end - at);
    if (line.ends_with('\r')) line.remove_suffix(1);
    lines.push_back(line);
    at = end + 1;
  }
  return lines;
}

// Lines `offset` on of `lines` under `heading`, at most `limit` of them and within the output
// cap; `unit` names them ("line", "message") and `end_words` the last page's note.
ReadOutcome page(const std::string& heading, const std::vector<std::string>& lines, std::string_view unit,
                 const std::string& shown, const ReadRequest& request, std::uint64_t default_limit,
                 std::size_t max_output_bytes, nlohmann::json meta) {
  const std::uint64_t n = lines.size();
  const std::uint64_t start = std::max<std::uint64_t>(1, request.offset.value_or(1));
  if (n > 0 && start > n)
    return ReadOutcome::error("Offset " + n2s(start) + " is past the end of " + shown + ": it has " +
                                  plural(n, unit, std::string(unit) + "s") + ". Use an offset from 1 to " + n2s(n) + ".",
                              std::move(meta));
  const std::uint64_t last = std::min(n, start + std::max<std::uint64_t>(1, request.limit.value_or(default_limit)) - 1);
  std::string out = heading + "\n\n";
  std::uint64_t end = start - 1;
  bool capped = false;
  for (std::uint64_t i = start; i <= last; ++i) {
    const std::string& line = lines[static_cast<std::size_t>(i - 1)];
    if (out.size() + line.size() + 300 > max_output_bytes) {
      capped = true;
      if (end >= start) break;
      out += line.substr(0, utf8::fit_bytes(line, max_output_bytes / 2)) + " [\u2026 line cut to fit the output cap]\n";
      end = i;
      break;
    }
    out += line + "\n";
    end = i;
  }
  const std::string span = n2s(std::min(start, n)) + "-" + n2s(end) + " of " + n2s(n);
  std::string Unit(unit);
  Unit[0] = static_cast<char>(Unit[0] - 'a' + 'A');
  out += end < n ? "[" + Unit + "s " + span + ". To read more, " +
                       request.wording.say({.offset = end + 1}, HintForm::call_again) + ".]"
                 : "[" + Unit + "s " + span + ". End of " + shown + ".]";
  meta["start"] = start;
  meta["end"] = end;
  if (end < n) meta["next_offset"] = end + 1;
  meta["truncated"] = capped;
  ReadOutcome o;
  o.blocks.emplace_back(TextBlock{utf8::sanitized(out)});
  o.meta = std::move(meta);
  return o;
}

std::string attachment_line(const std::string& shown, const Attachment& a) {
  return "- " + shown + "/" + a.name + " (" + a.mime + (a.message ? ", a message" : "") +
         (a.size ? ", " + human_size(*a.size) : std::string()) + ")";
}

bool envelope_line(std::string_view head) { return head.starts_with("From "); }

}  // namespace

std::string_view without_envelope(std::string_view bytes) {
  if (!envelope_line(bytes)) return bytes;
  const std::size_t eol = bytes.find('\n');
  return eol == std::string_view::npos ? std::string_view() : bytes.substr(eol + 1);
}

bool is_mbox(std::string_view extension, std::string_view head) {
  if (extension == "mbox" || extension == "mbx") return true;
  return extension != "eml" && envelope_line(head);
}

ReadOutcome render_message(const Message& m, std::string_view what, const std::string& shown,
                           std::optional<std::uint64_t> file_size, const ReadRequest& request, const ReadLimits& limits) {
  nlohmann::json meta = {{"path", shown}};
  if (file_size) meta["size"] = *file_size;
  std::vector<std::string> lines;
  for (const auto& [name, value] : m.headers) lines.push_back(name + ": " + value);
  lines.emplace_back();
  std::string body = m.body;
  if (m.body_mime == "text/html") {
    html_text::Text text = html_text::to_text(m.body, true);
    body = text.error.empty() ? std::move(text.text) : "[The HTML body could not be made text: " + text.error + ".]";
  }
  if (m.body_mime.empty()) body = "[The message has no text body.]";
  for (std::string_view line : lines_of(body)) lines.emplace_back(line);
  if (m.body_cut) lines.push_back("[The body goes on past " + human_size(MailLimits{}.max_body_bytes) + ": cut there.]");
  if (!m.attachments.empty()) {
    lines.emplace_back();
    lines.push_back(plural(m.attachments.size(), "attachment", "attachments") + ", each read by its path:");
    for (const Attachment& a : m.attachments) lines.push_back(attachment_line(shown, a));
  }
  for (const std::string& cut : m.cuts) lines.push_back("[Left out: " + cut + ".]");

  meta["lines"] = lines.size();
  meta["attachments"] = m.attachments.size();
  meta["body_type"] = m.body_mime;
  const std::string heading = std::string(what) + " " + shown +
                              (file_size ? " (" + human_size(*file_size) + ")" : std::string()) + ": " +
                              plural(lines.size(), "line", "lines") + ", " +
                              plural(m.attachments.size(), "attachment", "attachments") +
                              (m.body_mime == "text/html" ? "; the body is HTML made text" : "") + ".";
  return page(heading, lines, "line", shown, request, limits.text.limit, limits.text.max_output_bytes, std::move(meta));
}

ReadOutcome read_message(std::string_view bytes, const std::string& shown, std::uint64_t file_size,
                         const ReadRequest& request, const ReadLimits& limits) {
  Parsed parsed = parse_message(without_envelope(bytes), MailLimits{});
  if (!parsed.message)
    return ReadOutcome::error("Cannot read the message " + shown + ": " + parsed.error + ".",
                              {{"path", shown}, {"size", file_size}});
  return render_message(*parsed.message, "E-mail message", shown, file_size, request, limits);
}

namespace {

LruCache<std::shared_ptr<const MboxScan>>& mbox_cache() {
  // Never destroyed: the idle-memory release may clear it from its own thread while the process
  // exits, and the process's end frees its memory anyway (as the other caches).
  static auto* cache = new LruCache<std::shared_ptr<const MboxScan>>(32u << 20, 16);
  return *cache;
}

}  // namespace

std::size_t release_mbox_indexes() {
  return mbox_cache().clear();
}

MboxOrError mbox_index(const OpenedFile& file, const CancelToken& cancel) {
  const std::string key = file_io::identity_key(file);
  if (auto kept = mbox_cache().find(key)) return {*kept, std::nullopt};
  auto scan = std::make_shared<MboxScan>(scan_mbox(file.fd.get(), kMaxMboxMessages, cancel));
  if (cancel.cancelled()) return {nullptr, ReadOutcome::stopped()};
  if (!scan->error.empty())
    return {nullptr, ReadOutcome::error("Cannot read the mailbox " + utf8::sanitized(file.path.string()) + ": " +
                                        scan->error + ".")};
  std::size_t cost = sizeof(MboxScan);
  for (const MboxEntry& e : scan->entries) cost += sizeof e + e.date.size() + e.from.size() + e.subject.size();
  mbox_cache().put(key, scan, cost);
  return {scan, std::nullopt};
}

ReadOutcome read_mail_file(const OpenedFile& file, const ReadRequest& request, const ReadLimits& limits,
                           const CancelToken& cancel) {
  const std::string shown = utf8::sanitized(file.path.string());
  const auto size = static_cast<std::uint64_t>(file.st.st_size);
  std::string extension = file.path.extension().string();
  if (!extension.empty()) extension.erase(0, 1);
  for (char& c : extension) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  char head[5] = {};
  const auto got = file_io::pread_full(file.fd.get(), head, sizeof head, 0);
  const std::string_view start(head, got.value_or(0));

  if (!is_mbox(extension, start)) {
    const MailLimits mail_limits;
    if (size > mail_limits.max_message_bytes)
      return ReadOutcome::error(shown + " is " + human_size(size) + ", over the " + human_size(mail_limits.max_message_bytes) +
                                " read at most for one e-mail message. " +
                                request.wording.say({.as = FileKind::text}, HintForm::Call) + " to read its source.");
    auto bytes = file_io::read_whole(file.fd.get(), size, mail_limits.max_message_bytes);
    if (!bytes) return ReadOutcome::error("Cannot read " + shown + ": " + utf8::sanitized(std::strerror(errno)) + ".");
    if (cancel.cancelled()) return ReadOutcome::stopped();
    return read_message(*bytes, shown, size, request, limits);
  }

  MboxOrError indexed = mbox_index(file, cancel);
  if (indexed.refusal) return std::move(*indexed.refusal);
  const MboxScan& scan = *indexed.scan;
  std::vector<std::string> lines;
  for (std::size_t i = 0; i < scan.entries.size(); ++i) {
    const MboxEntry& e = scan.entries[i];
    lines.push_back(n2s(i + 1) + ". " + (e.date.empty() ? "(no date)" : e.date) + " | " +
                    (e.from.empty() ? "(no sender)" : e.from) + " | " + (e.subject.empty() ? "(no subject)" : e.subject));
  }
  nlohmann::json meta = {{"path", shown}, {"size", size}, {"messages", scan.entries.size()}};
  std::string heading = "Mailbox " + shown + " (" + human_size(size) + "): " +
                        plural(scan.entries.size(), "message", "messages") +
                        (scan.cut ? " listed, the first " + n2s(kMaxMboxMessages) + " (the rest are not read)" : "") +
                        ". Each is read by its number after the mailbox's path: " + shown + "/1.";
  return page(heading, lines, "message", shown, request, limits.text.limit, limits.text.max_output_bytes,
              std::move(meta));
}

}  // namespace mcpread::readers::mail
