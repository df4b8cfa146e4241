#pragma once
// What CHMLib takes out of a compiled HTML help file, in a child process (child_process.hpp):
// the names and sizes of its files, its #SYSTEM record and table of contents (.hhc), or one
// member's bytes. CHMLib opens files by name: the file is named /proc/self/fd/N. A child that
// crashes, loops or runs past its limits costs one read. Internal to the readers library.
#include "mcpread/readers/cancel.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mcpread::readers::chm {

inline constexpr std::size_t kMaxEntries = 100'000;              // files listed of one help file
inline constexpr std::uint64_t kMaxMemberBytes = 64ull << 20;     // bytes of one member read at most
inline constexpr std::uint64_t kMaxContentsBytes = 16ull << 20;   // of its table of contents (.hhc)
inline constexpr std::uint64_t kMaxSystemBytes = 1ull << 20;      // of its #SYSTEM record
inline constexpr std::size_t kMaxNameBytes = 511;                 // CHMLib's names: 512 bytes with the "/"

struct Entry {
  std::string name;  // as stored, without the leading '/': "html/intro.htm"
  std::uint64_t size = 0;
};

struct Extracted {
  std::vector<Entry> entries;  // the files (no folders, no internal # $ :: entries), stored order
  bool entries_cut = false;    // more than kMaxEntries
  std::string system;          // the #SYSTEM record (title, contents file, default topic)
  std::string contents_name;   // the table of contents taken, "" when none
  std::string contents;        // its bytes
  bool member_found = false;   // the member asked for is a file of the help file
  std::uint64_t member_size = 0;  // its size as stored (bytes are empty when over the limit)
  std::string member;
};

// With `listing`: the entries, #SYSTEM and the table of contents; with a `member` ("/intro.htm"):
// that member. False with a clause in *error when CHMLib cannot be loaded, refuses the file, or
// its child did not end well ("CHMLib crashed reading it (signal 11, Segmentation fault)").
bool extract(int fd, bool listing, const std::string& member, Extracted* out, std::string* error,
             const CancelToken& cancel);

// The message the child sends, written and read back (read_message trusts nothing: false for
// bytes that are not one).
std::string write_message(const Extracted& e);
bool read_message(std::string_view bytes, Extracted* out);

// The contents file #SYSTEM names (its code 0 record), its title (3) and default topic (2).
struct SystemInfo {
  std::string contents, default_topic, title;
};
SystemInfo parse_system(std::string_view bytes);

}  // namespace mcpread::readers::chm
