#pragma once
// What libpff takes out of an Outlook data file (.pst, .ost), in a child process
// (child_process.hpp): its folders, nested, each with its messages' subject, sender and date; or
// one message whole. libpff opens files by name: the file is named /proc/self/fd/N. A child that
// crashes, loops or runs past its limits costs one read. Internal to the readers library.
#include "mcpread/readers/cancel.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace mcpread::readers::pst {

inline constexpr std::size_t kMaxFolders = 10'000;       // folders listed of one file
inline constexpr std::size_t kMaxListed = 50'000;        // messages listed of one file, all folders
inline constexpr int kMaxDepth = 32;                     // folders inside one another
inline constexpr std::size_t kMaxFieldBytes = 1024;      // of a subject, sender, recipients line
inline constexpr std::size_t kMaxBodyBytes = 4u << 20;   // of one body, as the mail reader keeps
inline constexpr std::size_t kMaxAttachments = 500;      // listed of one message

struct MessageLine {
  std::string subject, from;
  std::uint64_t filetime = 0;  // delivered, else submitted; 0 when neither
};

struct Folder {
  std::string path;        // its names from the top, "/" between ("Top of Personal Folders/Inbox")
  int depth = 0;           // 0 at the top
  std::uint32_t count = 0;  // its messages, as libpff counts them
  std::vector<MessageLine> messages;  // the first of them, kMaxListed in all folders at most
};

struct Attached {
  std::string name;
  std::uint64_t size = 0;
};

struct Message {
  MessageLine line;
  std::string to, cc, sender_address;
  std::string body;            // UTF-8 plain text, else HTML as stored
  bool html = false;
  bool body_cut = false;
  std::vector<Attached> attachments;
};

struct Extracted {
  std::vector<Folder> folders;  // listing: depth first, in stored order
  bool cut = false;             // folders or messages past the limits left out
  bool found = false;           // a message asked for: it exists
  std::int64_t folder_messages = -1;  // a message asked for: its folder's messages; -1: no such folder
  Message message;
};

// A folder's name as one component of a path: its "/" written "∕" (U+2215) so that paths split.
std::string component(std::string_view name);

// With `listing`: the folders and messages; else the message numbered `number` (from 1) of the
// folder at `folder` (components as component() writes them). False with a clause in *error when
// libpff cannot be loaded, refuses the file, or its child did not end well.
bool extract(int fd, bool listing, const std::vector<std::string>& folder, std::uint32_t number, Extracted* out,
             std::string* error, const CancelToken& cancel);

// The message the child sends, written and read back (read_message trusts nothing).
std::string write_message(const Extracted& e);
bool read_message(std::string_view bytes, Extracted* out);

}  // namespace mcpread::readers::pst
