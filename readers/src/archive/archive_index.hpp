#pragma once
// What an archive holds, listed once (one pass over it, every member's data skipped), and the
// bytes of one member taken out of it: both under the limits against bombs (ArchiveLimits).
#include "mcpread/readers/cancel.hpp"
#include "mcpread/readers/read.hpp"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace mcpread::readers::archive {

enum class MemberType { file, directory, symlink, hardlink, character_device, block_device, fifo, socket, other };

struct Member {
  std::string name;  // its path in the archive as stored, without "./" and a trailing '/'
  MemberType type = MemberType::file;
  std::uint64_t size = 0;
  bool size_known = true;
  std::string link;         // the target of a symbolic or hard link
  bool encrypted = false;
  bool unsafe_name = false;  // absolute, or stepping out with "..": a name no member may have
  std::uint64_t ordinal = 0;  // its place among the archive's entries, from 0
};

struct Index {
  std::string format;  // "ZIP 2.0 (deflation)", "GNU tar format, gzip-compressed"
  std::vector<Member> members;  // in the archive's order
  std::uint64_t file_bytes = 0;  // the files' sizes added up, as their headers give them
  std::string damage;  // why the listing stopped before the archive's end; empty: read to its end
  bool raw = false;    // a compressed file holding no archive: one member, the file unpacked

  // The member named `name` exactly (after the same normalisation as the names), the last of
  // that name; null: none.
  [[nodiscard]] const Member* find(std::string_view name) const;
  // Whether members lie under `folder/` (a folder the archive names only through its members).
  [[nodiscard]] bool is_folder(std::string_view folder) const;
  [[nodiscard]] std::size_t bytes() const;  // about what it holds in memory, for the cache
};

// "docs/readme.txt" for "./docs//readme.txt/"; the names of members and of requests alike.
std::string normal_name(std::string_view name);

// The members a listing pass takes out on its way, so that the first read of a member of a big
// compressed archive unpacks it once, not once to list and once to take it out.
using Wanted = std::function<bool(const Member&)>;
struct Taken {
  std::string name;
  std::shared_ptr<const std::string> bytes;
};

// The archive's listing; an error (a sentence's clause, no final period) when it cannot be read
// or a limit is passed. `file_name` names the member of a compressed file that holds no archive
// (notes.txt for notes.txt.gz). The files `wanted` says yes to are added to *taken when they fit
// the member limit.
using IndexResult = std::variant<std::shared_ptr<const Index>, std::string>;
IndexResult build_index(int fd, std::uint64_t size, std::string_view file_name, const ArchiveLimits& limits,
                        const CancelToken& cancel, const Wanted& wanted = {}, std::vector<Taken>* taken = nullptr);

// The bytes of `member` (found by its place in the archive); an error clause when they cannot be
// had within the limits.
using BytesResult = std::variant<std::shared_ptr<const std::string>, std::string>;
BytesResult extract(int fd, std::uint64_t size, const Member& member, const ArchiveLimits& limits,
                    const CancelToken& cancel);

// "a directory", "a symbolic link to x", "a character device": how messages name a member that
// is no file.
std::string member_kind(const Member& member);

}  // namespace mcpread::readers::archive
