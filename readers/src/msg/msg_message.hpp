#pragma once
// An Outlook message ([MS-OXMSG]) taken apart from its OLE2 compound file into the mail reader's
// Message: each property a stream named __substg1.0_<id><type>, the fixed-size ones (times,
// numbers) in __properties_version1.0; recipients and attachments in storages of their own; an
// attached message a storage inside its attachment's, laid out as a message. Internal to the
// readers library.
#include "mail/mail_message.hpp"
#include "ole2/ole2_file.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mcpread::readers::msg {

struct MsgLimits {
  std::uint64_t max_file_bytes = 64ull << 20;  // as for an e-mail message
  std::uint64_t max_stream_bytes = 64ull << 20;
  std::size_t max_body_bytes = mail::MailLimits{}.max_body_bytes;
  std::size_t max_recipients = 1000;
  std::size_t max_attachments = 500;
  std::size_t max_depth = 16;  // attached messages inside one another
};

// One attachment of a message: how it is listed and where it lies.
struct MsgAttachment {
  mail::Attachment listed;
  ole2::Path storage;  // its __attach_version1.0_#... storage
  bool ole_object = false;  // an embedded OLE object (attach method 6): listed, not read
};

// The name past a message's path that reads a body kept only as compressed RTF.
inline constexpr std::string_view kRtfBodyName = "body.rtf";

// The message whose storage is `root` (empty: the file's own; an attachment's
// __substg1.0_3701000D: an attached message), shown as `shown` (a body kept only as RTF is said
// to be read as <shown>/body.rtf).
mail::Parsed parse_msg(const ole2::CompoundFile& file, const ole2::Path& root, const MsgLimits& limits,
                       const std::string& shown);

// The message's body kept only as compressed RTF, made RTF again; nullopt when it has a plain or
// HTML body or no RTF one (*error empty), or when the RTF is damaged (*error says why).
std::optional<std::string> rtf_only_body(const ole2::CompoundFile& file, const ole2::Path& root,
                                         const MsgLimits& limits, std::string* error);

// The attachments of the message at `root`, named as parse_msg lists them; `cut` set when there
// are more than max_attachments.
std::vector<MsgAttachment> msg_attachments(const ole2::CompoundFile& file, const ole2::Path& root,
                                           const MsgLimits& limits, bool* cut);

// The storage of an attached message inside its attachment's storage.
ole2::Path attached_message_root(const MsgAttachment& attachment);

// The bytes of an attachment stored by value (property 0x3701, PT_BINARY); nullopt with *error.
std::optional<std::string> attachment_data(const ole2::CompoundFile& file, const MsgAttachment& attachment,
                                           const MsgLimits& limits, std::string* error);

}  // namespace mcpread::readers::msg
