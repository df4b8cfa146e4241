#pragma once
// The mail reader's reads: a message (its headers, its text body paged by lines, its attachments
// listed), an mbox (its messages listed, paged), and a path that goes on past either into an
// attachment or a mailbox's message (mail_path.cpp). Internal to the readers library.
#include "mail/mail_message.hpp"
#include "mcpread/readers/access.hpp"
#include "mcpread/readers/file_kind.hpp"
#include "mcpread/readers/read.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace mcpread::readers::mail {

inline constexpr FileKind kMailKind{"mail"};

inline constexpr std::size_t kMaxMboxMessages = 100'000;  // messages listed from one mbox

// True when the file is read as a mailbox: named .mbox/.mbx, or starting with an mbox's "From "
// line and not named .eml (a message saved with its envelope line).
bool is_mbox(std::string_view extension, std::string_view head);

// The message in `bytes` (an .eml file, an mbox entry, an attached message) answered for `shown`.
ReadOutcome read_message(std::string_view bytes, const std::string& shown, std::uint64_t file_size,
                         const ReadRequest& request, const ReadLimits& limits);

// A message already taken apart (by GMime, or from an Outlook .msg) answered for `shown`: its
// headers, its body paged by lines (HTML made text), its attachments listed with their paths.
// `what` names it in the heading ("E-mail message"), with its size when known.
ReadOutcome render_message(const Message& message, std::string_view what, const std::string& shown,
                           std::optional<std::uint64_t> file_size, const ReadRequest& request, const ReadLimits& limits);

// A mail file read by the `read` tool: a message, or an mbox's listing.
ReadOutcome read_mail_file(const OpenedFile& file, const ReadRequest& request, const ReadLimits& limits,
                           const CancelToken& cancel);

// The messages of an mbox, scanned once per file version (kept in a small cache).
struct MboxOrError {
  std::shared_ptr<const MboxScan> scan;
  std::optional<ReadOutcome> refusal;
};
MboxOrError mbox_index(const OpenedFile& file, const CancelToken& cancel);
std::size_t release_mbox_indexes();

// A path past a mail file: an attachment ("/mail/a.eml/report.pdf"), a mailbox's message
// ("/mail/box.mbox/12"), and so on into attached messages.
std::optional<ReadOutcome> read_inside(const Roots& roots, const PathInsideFile& inside, const ReadRequest& request,
                                       const ReadLimits& limits, const CancelToken& cancel);

// The bytes of a message from its file's bytes: an envelope "From " line dropped.
std::string_view without_envelope(std::string_view bytes);

// The tool description's line for mail, shared by the Outlook .msg reader (the description has a
// byte budget, and a .msg is read the same way; it simply never lists messages by number).
std::string describe_mail(const ReadLimits& limits);

}  // namespace mcpread::readers::mail
