// Reading through a mail file, as through an archive: "/mail/a.eml/report.pdf" reads the
// attachment report.pdf with whatever reader fits it, "/mail/box.mbox/12" the mailbox's 12th
// message, "/mail/a.eml/part-3.eml/x.pdf" an attachment of an attached message.
#include "file_io.hpp"
#include "human_size.hpp"
#include "inside_file.hpp"
#include "mail/mail_reader.hpp"
#include "mcpread/readers/utf8.hpp"
#include "memory_file.hpp"
#include "read_opened.hpp"

#include <cerrno>
#include <charconv>
#include <cstring>

namespace mcpread::readers::mail {
namespace {

ReadOutcome refusal(const std::string& message) { return ReadOutcome::error(utf8::sanitized(message)); }

std::string lower_extension(const OpenedFile& file) {
  std::string extension = file.path.extension().string();
  if (!extension.empty()) extension.erase(0, 1);
  for (char& c : extension) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  return extension;
}

// The bytes of message `name` ("12") of the mailbox, or a refusal.
std::variant<std::string, ReadOutcome> mbox_message(const OpenedFile& file, const std::string& shown,
                                                    const std::string& name, const CancelToken& cancel) {
  MboxOrError indexed = mbox_index(file, cancel);
  if (indexed.refusal) return std::move(*indexed.refusal);
  const std::vector<MboxEntry>& entries = indexed.scan->entries;
  std::uint64_t number = 0;
  const auto [end, ec] = std::from_chars(name.data(), name.data() + name.size(), number);
  if (ec != std::errc() || end != name.data() + name.size() || number == 0 || number > entries.size())
    return refusal("File not found: " + shown + "/" + name + ". The mailbox " + shown + " holds " +
                   std::to_string(entries.size()) + (entries.size() == 1 ? " message" : " messages") +
                   ", read by their numbers: " + shown + "/1 to " + shown + "/" + std::to_string(entries.size()) +
                   "; read " + shown + " to list them.");
  const MboxEntry& entry = entries[static_cast<std::size_t>(number - 1)];
  const MailLimits limits;
  if (entry.length > limits.max_message_bytes)
    return refusal("Cannot read " + shown + "/" + name + ": the message is " + human_size(entry.length) + ", over the " +
                   human_size(limits.max_message_bytes) + " read at most for one e-mail message.");
  std::string bytes(static_cast<std::size_t>(entry.length), '\0');
  const auto got = file_io::pread_full(file.fd.get(), bytes.data(), bytes.size(), entry.offset);
  if (!got) return refusal("Cannot read " + shown + ": " + std::strerror(errno) + ".");
  bytes.resize(*got);
  return bytes;
}

}  // namespace

std::optional<ReadOutcome> read_inside(const Roots& roots, const PathInsideFile& inside, const ReadRequest& request,
                                       const ReadLimits& limits, const CancelToken& cancel) {
  OuterFile outer = open_outer_file(roots, inside, kMailKind, request);
  if (auto* answer = std::get_if<ReadOutcome>(&outer)) return std::move(*answer);
  if (!std::holds_alternative<OpenedFile>(outer)) return std::nullopt;
  const OpenedFile& file = std::get<OpenedFile>(outer);
  std::string error;

  const MailLimits mail_limits;
  std::string shown = utf8::sanitized(file.path.string());
  std::string rest = inside.inner;
  std::string bytes;
  char head[5] = {};
  const auto got = file_io::pread_full(file.fd.get(), head, sizeof head, 0);
  if (is_mbox(lower_extension(file), std::string_view(head, got.value_or(0)))) {
    auto [name, tail] = split_first(rest);
    auto message = mbox_message(file, shown, name, cancel);
    if (auto* refused = std::get_if<ReadOutcome>(&message)) return std::move(*refused);
    bytes = std::move(std::get<std::string>(message));
    shown += "/" + name;
    rest = tail;
  } else {
    const auto size = static_cast<std::uint64_t>(file.st.st_size);
    if (size > mail_limits.max_message_bytes)
      return refusal("Cannot read " + shown + "/" + rest + ": " + shown + " is " + human_size(size) + ", over the " +
                     human_size(mail_limits.max_message_bytes) + " read at most for one e-mail message.");
    auto whole = file_io::read_whole(file.fd.get(), size, mail_limits.max_message_bytes);
    if (!whole) return refusal("Cannot read " + shown + ": " + std::strerror(errno) + ".");
    bytes = std::move(*whole);
  }

  // Into attachments, and attached messages' attachments, one path component each.
  for (std::size_t depth = 1;; ++depth) {
    if (cancel.cancelled()) return ReadOutcome::stopped();
    if (rest.empty()) return read_message(bytes, shown, bytes.size(), request, limits);
    if (depth > mail_limits.max_depth)
      return refusal("Cannot read " + shown + "/" + rest + ": messages are read " + std::to_string(mail_limits.max_depth) +
                     " attached messages deep at most.");
    auto [name, tail] = split_first(rest);
    PartBytes part = attachment_bytes(without_envelope(bytes), name, mail_limits);
    if (!part.bytes) return refusal("Cannot read " + shown + "/" + rest + ": " + part.error + ".");
    const std::string part_path = shown + "/" + name;
    if (!tail.empty() && !part.attachment->message)
      return refusal("Cannot read " + part_path + "/" + tail + ": " + part_path + " is " + part.attachment->mime +
                     ", not a message, so nothing lies inside it.");
    if (tail.empty()) {
      // The attachment read as any file is, by the reader its name and bytes call for.
      auto opened = memory_file(*part.bytes, part_path, &error);
      if (!opened) return refusal("Cannot read " + part_path + ": " + error + ".");
      return read_opened(*opened, request, limits, cancel);
    }
    bytes = std::move(*part.bytes);
    shown = part_path;
    rest = tail;
  }
}

}  // namespace mcpread::readers::mail
