#include "archive/archive_index.hpp"

#include "archive/archive_pass.hpp"
#include "member_name.hpp"
#include "human_size.hpp"

#include <algorithm>
#include <cctype>

namespace mcpread::readers::archive {
namespace {

// Below this many unpacked bytes any compression ratio passes: a small file of zeros is no bomb,
// and what it costs is bounded.
constexpr std::uint64_t kRatioFloor = 8u << 20;
constexpr std::size_t kChunk = 64 * 1024;

// Absolute (including a Windows drive), or with a ".." component, '\\' counting as a separator:
// a name that would step out of wherever the archive is unpacked.
bool unsafe(std::string_view name) {
  if (name.size() >= 2 && name[1] == ':' && std::isalpha(static_cast<unsigned char>(name[0]))) return true;
  return member_name_escapes(name);
}

MemberType type_of(const Pass::EntryFacts& f) {
  if (f.hard_link) return MemberType::hardlink;
  switch (f.file_type) {
    case AE_IFREG: return MemberType::file;
    case AE_IFDIR: return MemberType::directory;
    case AE_IFLNK: return MemberType::symlink;
    case AE_IFCHR: return MemberType::character_device;
    case AE_IFBLK: return MemberType::block_device;
    case AE_IFIFO: return MemberType::fifo;
    case AE_IFSOCK: return MemberType::socket;
    default: return MemberType::other;
  }
}

// notes.txt for notes.txt.gz: the name of what a compressed file that holds no archive unpacks to.
std::string unpacked_name(std::string_view file_name) {
  if (file_name.size() > 5 && file_name.ends_with(".svgz"))  // a compressed SVG: read as the image
    return std::string(file_name.substr(0, file_name.size() - 1));
  for (std::string_view ext : {".gz", ".bz2", ".xz", ".zst", ".lz4", ".lzma", ".lz", ".Z", ".z"})
    if (file_name.size() > ext.size() && file_name.ends_with(ext))
      return std::string(file_name.substr(0, file_name.size() - ext.size()));
  return "data";
}

// The limits a pass keeps to: unpacked bytes in all, and the ratio of unpacked to read bytes.
class Budget {
 public:
  Budget(const Pass& pass, const ArchiveLimits& limits) : pass_(pass), limits_(limits) {}
  // An error clause once a limit is passed; `data` adds the member bytes this pass unpacked.
  std::string check(std::uint64_t data = 0) const {
    const std::uint64_t unpacked = std::max(pass_.stream_bytes(), data);
    if (unpacked > limits_.max_total_bytes)
      return "it unpacks to more than " + human_size(limits_.max_total_bytes) +
             " in one pass, the most allowed (--archive-max-bytes)";
    const std::uint64_t read = std::max<std::uint64_t>(pass_.compressed_bytes(), 1);
    if (unpacked > kRatioFloor && unpacked / read > limits_.max_ratio)
      return "it unpacks at " + std::to_string(unpacked / read) + " to 1, over the ratio of " +
             std::to_string(limits_.max_ratio) + " allowed (a compression bomb?) (--archive-max-ratio)";
    return {};
  }

 private:
  const Pass& pass_;
  const ArchiveLimits& limits_;
};

// Reads through the current entry's data, checking the budget at every chunk: libarchive would
// skip it in one call, and a compressed stream's skip unpacks it all with no chance to stop.
// Only a compressed stream needs it; elsewhere skipping seeks past the data.
// *over_limit tells a limit passed from a damaged stream.
std::string drain(Pass& pass, const Budget& budget, std::uint64_t* data, bool* over_limit) {
  *over_limit = false;
  if (!pass.compressed() && !pass.raw()) return {};
  std::string buffer(kChunk, '\0');
  for (;;) {
    const long long n = pass.read(buffer.data(), buffer.size());
    if (n < 0 || pass.stop_requested()) return pass.error();
    if (n == 0) return {};
    *data += static_cast<std::uint64_t>(n);
    if (auto over = budget.check(*data); !over.empty()) {
      *over_limit = true;
      return over;
    }
  }
}

// The current entry's data, counted against the member limit and the pass's budget.
BytesResult take(Pass& pass, const Budget& budget, const ArchiveLimits& limits, std::uint64_t* data) {
  auto bytes = std::make_shared<std::string>();
  std::string buffer(kChunk, '\0');
  for (;;) {
    const long long n = pass.read(buffer.data(), buffer.size());
    if (n < 0 || pass.stop_requested()) return pass.error();
    if (n == 0) return std::shared_ptr<const std::string>(std::move(bytes));
    *data += static_cast<std::uint64_t>(n);  // counted when refused too: a listing sizes the member by it
    if (bytes->size() + static_cast<std::uint64_t>(n) > limits.max_member_bytes)
      return "it unpacks to more than " + human_size(limits.max_member_bytes) +
             ", the most read from one member (--archive-max-member-bytes)";
    bytes->append(buffer.data(), static_cast<std::size_t>(n));
    if (auto over = budget.check(*data); !over.empty()) return over;
  }
}

}  // namespace

std::string normal_name(std::string_view name) {
  std::string out = name.starts_with('/') ? "/" : "";
  for (std::size_t at = 0; at <= name.size();) {
    std::size_t end = name.find('/', at);
    if (end == std::string_view::npos) end = name.size();
    const std::string_view part = name.substr(at, end - at);
    if (!part.empty() && part != ".") {
      if (!out.empty() && out != "/") out += '/';
      out += part;
    }
    at = end + 1;
  }
  return out;
}

const Member* Index::find(std::string_view name) const {
  // The last of the same name, as unpacking the archive would leave it (a tar appended to).
  for (auto m = members.rbegin(); m != members.rend(); ++m)
    if (m->name == name) return &*m;
  return nullptr;
}

bool Index::is_folder(std::string_view folder) const {
  return std::any_of(members.begin(), members.end(), [&](const Member& m) {
    return m.name.size() > folder.size() && m.name.starts_with(folder) && m.name[folder.size()] == '/';
  });
}

std::size_t Index::bytes() const {
  std::size_t n = sizeof(Index) + format.size() + damage.size();
  for (const Member& m : members) n += sizeof(Member) + m.name.size() + m.link.size();
  return n;
}

IndexResult build_index(int fd, std::uint64_t size, std::string_view file_name, const ArchiveLimits& limits,
                        const CancelToken& cancel, const Wanted& wanted, std::vector<Taken>* taken) {
  if (size == 0) return "the file is empty";  // libarchive would say its input is truncated
  std::string error;
  auto pass = Pass::open(fd, size, cancel, &error);
  if (!pass) return error;
  auto index = std::make_shared<Index>();
  const Budget budget(*pass, limits);
  std::uint64_t data = 0;
  archive_entry* entry = nullptr;
  for (;;) {
    const Pass::Next next = pass->next(&entry);
    if (next == Pass::Next::end) break;
    if (next == Pass::Next::failed) {
      if (pass->cancelled() || index->members.empty()) return pass->error();
      index->damage = pass->error();
      break;
    }
    if (index->members.empty()) {
      // raw matches any bytes: without a compression around them they are no archive.
      if (pass->raw() && !pass->compressed()) return "its bytes are in no archive format libarchive reads";
      index->format = pass->format();
      index->raw = pass->raw();
    }
    if (index->members.size() >= limits.max_entries)
      return "it holds more than " + std::to_string(limits.max_entries) +
             " entries, the most listed from one archive (--archive-max-entries)";
    const Pass::EntryFacts facts = pass->facts(entry);
    Member m;
    m.name = index->raw ? unpacked_name(file_name) : normal_name(facts.name);
    m.type = type_of(facts);
    m.size = facts.size;
    m.size_known = facts.size_known;
    m.link = facts.link;
    m.encrypted = facts.encrypted;
    m.unsafe_name = unsafe(facts.name);
    m.ordinal = index->members.size();
    if (m.type == MemberType::file && m.size_known) index->file_bytes += m.size;
    index->members.push_back(std::move(m));
    const std::uint64_t before = data;
    const Member& added = index->members.back();
    if (wanted && taken != nullptr && added.type == MemberType::file && !added.encrypted && !added.unsafe_name &&
        (!added.size_known || added.size <= limits.max_member_bytes) && wanted(added)) {
      // Taken or not, what remains of its data is drained below, under the budget.
      const BytesResult got = take(*pass, budget, limits, &data);
      if (const auto* bytes = std::get_if<std::shared_ptr<const std::string>>(&got)) taken->push_back({added.name, *bytes});
    }
    bool over_limit = false;
    if (auto stop = drain(*pass, budget, &data, &over_limit); !stop.empty()) {
      if (pass->cancelled() || over_limit) return stop;  // a bomb is refused, not listed in part
      index->damage = stop;
      break;
    }
    if (index->raw && !index->members.back().size_known) {
      index->members.back().size = data - before;  // its size is known once unpacked
      index->members.back().size_known = true;
      index->file_bytes += data - before;
    }
    if (auto over = budget.check(data); !over.empty()) return over;
  }
  if (index->members.empty() && index->format.empty()) index->format = pass->format();
  return std::shared_ptr<const Index>(std::move(index));
}

BytesResult extract(int fd, std::uint64_t size, const Member& member, const ArchiveLimits& limits,
                    const CancelToken& cancel) {
  if (member.size_known && member.size > limits.max_member_bytes)
    return "it is " + human_size(member.size) + ", over the " + human_size(limits.max_member_bytes) +
           " read from one member at most (--archive-max-member-bytes)";
  std::string error;
  auto pass = Pass::open(fd, size, cancel, &error);
  if (!pass) return error;
  const Budget budget(*pass, limits);
  std::uint64_t data = 0;
  archive_entry* entry = nullptr;
  for (std::uint64_t at = 0;; ++at) {
    const Pass::Next next = pass->next(&entry);
    if (next == Pass::Next::failed) return pass->error();
    if (next == Pass::Next::end) return "the archive ends before it (it changed since it was listed?)";
    if (at < member.ordinal) {
      bool over_limit = false;
      if (auto stop = drain(*pass, budget, &data, &over_limit); !stop.empty()) return stop;
      continue;
    }
    return take(*pass, budget, limits, &data);
  }
}

std::string member_kind(const Member& m) {
  switch (m.type) {
    case MemberType::file: return "a file";
    case MemberType::directory: return "a directory";
    case MemberType::symlink: return "a symbolic link to " + m.link;
    case MemberType::hardlink: return "a hard link to " + m.link;
    case MemberType::character_device: return "a character device";
    case MemberType::block_device: return "a block device";
    case MemberType::fifo: return "a FIFO (named pipe)";
    case MemberType::socket: return "a socket";
    case MemberType::other: return "an entry of an unknown type";
  }
  return "an entry";
}

}  // namespace mcpread::readers::archive
