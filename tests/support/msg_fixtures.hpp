#pragma once
// Outlook messages made on the spot for the .msg reader's tests: a small OLE2 compound file
// writer (streams in storages, the small ones in the mini stream, as Outlook writes them) and the
// [MS-OXMSG] layout on top of it: property streams, the fixed-size properties' stream, recipient
// and attachment storages, attached messages.
#include <cstdint>
#include <string>
#include <vector>

namespace mcpread::test {

// A stream (bytes) or, with children, a storage.
struct Ole2Node {
  std::string name;  // ASCII
  std::string bytes;
  std::vector<Ole2Node> children;
  bool storage = false;
};

// The compound file whose root storage holds `top`.
std::string ole2_file(const std::vector<Ole2Node>& top);

struct MsgRecipient {
  std::u16string name;
  std::u16string smtp;
  std::uint32_t type = 1;  // 1 To, 2 Cc, 3 Bcc
};

struct MsgSpec;

struct MsgAttach {
  std::u16string long_name;
  std::string mime;
  std::string data;
  std::vector<MsgSpec> message;  // one element: an attached message (attach method 5)
};

struct MsgSpec {
  std::u16string subject;
  std::u16string sender_name;
  std::u16string sender_smtp;
  std::u16string body;         // PR_BODY as PT_UNICODE, when not empty
  std::string body8;           // PR_BODY as PT_STRING8, when not empty
  std::uint32_t code_page = 0;  // PR_MESSAGE_CODEPAGE, when not 0
  std::string html;            // PR_HTML (PT_BINARY), when not empty
  std::string rtf_compressed;  // PR_RTF_COMPRESSED, when not empty
  std::uint64_t submit_time = 0;  // FILETIME, when not 0
  std::string transport_headers;  // PR_TRANSPORT_MESSAGE_HEADERS (PT_STRING8), when not empty
  std::vector<MsgRecipient> recipients;
  std::vector<MsgAttach> attachments;
};

// The message's storage contents (`embedded`: an attached message's, with the 24-byte header).
std::vector<Ole2Node> msg_nodes(const MsgSpec& spec, bool embedded = false);

// The .msg file's bytes.
inline std::string msg_file(const MsgSpec& spec) { return ole2_file(msg_nodes(spec)); }

}  // namespace mcpread::test
