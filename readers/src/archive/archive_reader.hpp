#pragma once
// The archive reader's parts, shared by its listing (archive_listing.cpp), the reading of a
// member through a path (archive_path.cpp) and its registration (register_archive.cpp).
#include "archive/archive_index.hpp"
#include "mcpread/readers/file_kind.hpp"
#include "mcpread/readers/read.hpp"

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

namespace mcpread::readers::archive {

inline constexpr FileKind kArchiveKind{"archive"};

// The listing of the archive in `file` (cached under `key`), or the refusal to answer with;
// `shown` is how messages name the archive. When it is listed now, the files `inner` (a path
// inside the archive) may start with are taken out on the way and cached as members read.
using IndexOrRefusal = std::variant<std::shared_ptr<const Index>, ReadOutcome>;
IndexOrRefusal index_of(const OpenedFile& file, const std::string& key, const std::string& shown,
                        const ReadLimits& limits, const CancelToken& cancel, const std::string& inner = {});

// The refusal of an archive `depth` archives deep (the outer one 1) when that is past the limit.
std::optional<ReadOutcome> too_deep(const std::string& shown, std::uint64_t depth, const ReadLimits& limits);

// A page of the members of `index` under `folder` ("" for all of them), `shown` naming the
// archive: path, size and type per line, how to read a member, and the offset to go on from.
ReadOutcome list_members(const std::string& shown, const Index& index, std::string_view folder,
                         const ReadRequest& request, const ReadLimits& limits);

// What the reader of an archive found inside another knows of it, which its ReaderCall cannot
// carry: the key its listing is cached under (the outer file's identity, then the members' names;
// the memory file's own identity changes at every call) and how deep it lies. Set by
// archive_path.cpp for the one read of a member, on the thread that reads it.
struct Nesting {
  int fd = -1;  // the member's memory file
  std::string key;
  std::uint64_t depth = 1;
};
class NestingScope {
 public:
  explicit NestingScope(Nesting nesting);
  ~NestingScope();
  NestingScope(const NestingScope&) = delete;
  NestingScope& operator=(const NestingScope&) = delete;

 private:
  const Nesting* previous_;
  Nesting nesting_;
};
// The nesting of the archive in `fd`: null for a file opened from the roots.
const Nesting* nesting_of(int fd);

}  // namespace mcpread::readers::archive
