#pragma once
// An Internet message (RFC 5322/MIME) taken apart by GMime 3: the headers a reader wants, the
// text body (text/plain preferred among alternatives), and the other parts as named attachments.
// No GMime type appears here: the Windows build, which has no GMime, compiles these declarations
// and gets a refusal from every function. Internal to the readers library.
#include "mcpread/readers/cancel.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mcpread::readers::mail {

// Bounds on one message, hostile or not. Decoded bytes never exceed the encoded ones (base64 and
// quoted-printable only shrink), so the message's size bounds what decoding produces.
struct MailLimits {
  std::uint64_t max_message_bytes = 64ull << 20;  // a message (a file, an mbox entry) parsed at most
  std::size_t max_body_bytes = 4u << 20;          // text kept from the body
  std::size_t max_parts = 1000;                   // MIME parts looked at
  std::size_t max_depth = 16;                     // multiparts and messages inside one another
  std::size_t max_attachments = 500;              // attachments listed
};

struct Attachment {
  std::string name;                   // its file name, or part-N.<ext> when it has none or a taken one
  std::string mime;                   // "application/pdf"
  std::optional<std::uint64_t> size;  // decoded bytes
  bool message = false;               // message/rfc822: a message inside the message
  std::size_t part = 0;               // its number in the walk (part-N)
};

struct Message {
  std::vector<std::pair<std::string, std::string>> headers;  // From, To, Cc, Reply-To, Date, Subject
  std::string body;       // UTF-8; HTML as it came (the reader renders it)
  std::string body_mime;  // "text/plain", "text/html"; empty when the message has no text body
  bool body_cut = false;  // over max_body_bytes
  std::vector<Attachment> attachments;
  std::vector<std::string> cuts;  // what the limits left out, in words ("parts after the 1,000th")
};

struct Parsed {
  std::optional<Message> message;
  std::string error;  // when no message: why, a clause without a final period
};

// The message in `bytes`; an error when GMime is missing or finds no message.
Parsed parse_message(std::string_view bytes, const MailLimits& limits);

struct PartBytes {
  std::optional<std::string> bytes;  // the attachment's decoded bytes (a message's as it is written)
  std::optional<Attachment> attachment;
  std::string error;  // when no bytes: GMime missing, or no attachment has that name
};

// The decoded bytes of the attachment named `name` (as parse_message names it).
PartBytes attachment_bytes(std::string_view bytes, std::string_view name, const MailLimits& limits);

// One message of an mbox: where its bytes lie (after its "From " line) and what lists it.
struct MboxEntry {
  std::uint64_t offset = 0;
  std::uint64_t length = 0;
  std::string date, from, subject;
};

struct MboxScan {
  std::vector<MboxEntry> entries;
  bool cut = false;    // stopped at max_entries
  std::string error;   // GMime missing, or not an mbox
};

// The messages of the mbox open at `fd` (not moved), the first `max_entries` of them.
MboxScan scan_mbox(int fd, std::size_t max_entries, const CancelToken& cancel);

}  // namespace mcpread::readers::mail
