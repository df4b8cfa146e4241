#include "archive/archive_path.hpp"

#include "archive/archive_cache.hpp"
#include "archive/archive_reader.hpp"
#include "file_io.hpp"
#include "human_size.hpp"
#include "memory_file.hpp"
#include "mcpread/common/platform.hpp"
#include "mcpread/readers/registry.hpp"
#include "mcpread/readers/utf8.hpp"
#include "read_opened.hpp"
#include "registry/classified_file.hpp"
#include "similar.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <tuple>
#include <system_error>

namespace mcpread::readers::archive {
namespace {

thread_local const Nesting* current_nesting = nullptr;

ReadOutcome refusal(const std::string& message) { return ReadOutcome::error(utf8::sanitized(message)); }

FileKind kind_of(const OpenedFile& file) {
  std::string error;
  const auto classified = classify_file(file, &error);
  return classified ? classified->classification.kind : FileKind::binary;
}

// The member `rest` starts with: the longest run of its components that names a member.
const Member* leading_member(const Index& index, const std::string& rest, std::string* tail) {
  for (std::size_t end = rest.size(); end != std::string::npos && end > 0; end = rest.rfind('/', end - 1)) {
    if (const Member* m = index.find(rest.substr(0, end))) {
      *tail = end < rest.size() ? rest.substr(end + 1) : std::string();
      return m;
    }
    if (end == 0) break;
  }
  return nullptr;
}

// Up to 3 members named like `wanted`, best first: the same name in another case, a small edit
// distance, the same file name in another folder. The first 10,000 members are looked at.
std::string did_you_mean(const Index& index, const std::string& wanted, const std::string& shown) {
  const std::string query = detail::ascii_lower(wanted);
  const std::string_view base = std::string_view(query).substr(query.rfind('/') + 1);
  const std::size_t limit = std::max<std::size_t>(2, query.size() / 3);
  std::vector<std::tuple<int, std::size_t, const Member*>> found;
  for (std::size_t i = 0; i < index.members.size() && i < 10'000; ++i) {
    const Member& m = index.members[i];
    if (m.unsafe_name || m.name.size() >= 128 || query.size() >= 128) continue;
    const std::string lower = detail::ascii_lower(m.name);
    std::size_t dist = 0;
    if (lower == query)
      found.emplace_back(0, 0, &m);
    else if ((dist = detail::edit_distance(query, lower, limit)) <= limit && dist < query.size())
      found.emplace_back(1, dist, &m);
    else if (!base.empty() && std::string_view(lower).substr(lower.rfind('/') + 1) == base)
      found.emplace_back(2, lower.size(), &m);
  }
  const std::size_t keep = std::min<std::size_t>(3, found.size());
  std::partial_sort(found.begin(), found.begin() + static_cast<std::ptrdiff_t>(keep), found.end(),
                    [](const auto& a, const auto& b) {
                      return std::tie(std::get<0>(a), std::get<1>(a)) < std::tie(std::get<0>(b), std::get<1>(b));
                    });
  std::string out;
  for (std::size_t i = 0; i < keep; ++i) out += (i == 0 ? " Did you mean: " : ", ") + shown + "/" + std::get<2>(found[i])->name;
  return keep > 0 ? out + "?" : out;
}

}  // namespace

NestingScope::NestingScope(Nesting nesting) : previous_(current_nesting), nesting_(std::move(nesting)) {
  current_nesting = &nesting_;
}
NestingScope::~NestingScope() { current_nesting = previous_; }

const Nesting* nesting_of(int fd) {
  return current_nesting != nullptr && current_nesting->fd == fd ? current_nesting : nullptr;
}

std::optional<ReadOutcome> too_deep(const std::string& shown, std::uint64_t depth, const ReadLimits& limits) {
  if (depth <= limits.archive.max_depth) return std::nullopt;
  return refusal("Cannot read " + shown + ": it is an archive nested " + std::to_string(depth) +
                 " levels deep, and archives are read " + std::to_string(limits.archive.max_depth) +
                 (limits.archive.max_depth == 1 ? " level" : " levels") + " deep at most (--archive-max-depth).");
}

IndexOrRefusal index_of(const OpenedFile& file, const std::string& key, const std::string& shown,
                        const ReadLimits& limits, const CancelToken& cancel, const std::string& inner) {
  ArchiveCache& cache = ArchiveCache::instance();
  if (auto index = cache.index(key)) return index;
  // "inner.tar/x.txt" may be the member inner.tar or the member inner.tar/x.txt.
  const Wanted wanted = [&inner](const Member& m) {
    return !inner.empty() && inner.starts_with(m.name) && (inner.size() == m.name.size() || inner[m.name.size()] == '/');
  };
  std::vector<Taken> taken;
  IndexResult built = build_index(file.fd.get(), static_cast<std::uint64_t>(file.st.st_size),
                                  file.path.filename().string(), limits.archive, cancel, wanted, &taken);
  if (cancel.cancelled()) return ReadOutcome::stopped();
  if (auto* error = std::get_if<std::string>(&built))
    return refusal("Cannot read the archive " + shown + ": " + *error + ".");
  auto index = std::get<std::shared_ptr<const Index>>(built);
  cache.put_index(key, index);
  for (Taken& t : taken) cache.put_member(key, t.name, std::move(t.bytes));
  return index;
}

std::optional<ReadOutcome> read_inside(const Roots& roots, const PathInsideFile& inside, const ReadRequest& request,
                                       const ReadLimits& limits, const CancelToken& cancel) {
  // The outer file is opened as any file is: inside the roots, or refused as now.
  AccessResult access = open_in_roots(roots, inside.file);
  if (auto* denied = std::get_if<AccessError>(&access)) return ReadOutcome::error(denied->message);
  if (!std::holds_alternative<OpenedFile>(access)) return std::nullopt;
  OpenedFile file = std::move(std::get<OpenedFile>(access));
  if (kind_of(file) != kArchiveKind) return std::nullopt;
  if (request.nowait != 0) return ReadOutcome::waits();  // unpacking takes a while

  std::string key = file_io::identity_key(file);
  std::string shown = file.path.string();
  std::string rest = inside.inner;
  for (std::uint64_t depth = 1;; ++depth) {
    if (auto refused = too_deep(shown, depth, limits)) return refused;
    IndexOrRefusal listed = index_of(file, key, shown, limits, cancel, rest);
    if (auto* refused = std::get_if<ReadOutcome>(&listed)) return std::move(*refused);
    const Index& index = *std::get<std::shared_ptr<const Index>>(listed);
    if (rest.empty()) return list_members(shown, index, "", request, limits);

    std::string tail;
    const Member* member = leading_member(index, rest, &tail);
    if (member == nullptr || (member->type == MemberType::directory && !tail.empty())) {
      if (index.is_folder(rest)) return list_members(shown, index, rest, request, limits);
      return refusal("File not found: " + shown + "/" + rest + ". The archive " + shown + " has no member " + rest +
                     "; read " + shown + " to list its members." + did_you_mean(index, rest, shown));
    }
    const std::string member_path = shown + "/" + member->name;
    if (member->type == MemberType::directory) return list_members(shown, index, member->name, request, limits);
    if (member->type != MemberType::file)
      return refusal("Cannot read " + member_path + ": the member is " + member_kind(*member) +
                     ", and only files in an archive are read" +
                     (member->type == MemberType::symlink || member->type == MemberType::hardlink
                          ? "; read the member it links to instead."
                          : "."));
    if (member->encrypted)
      return refusal("Cannot read " + member_path + ": it is encrypted; mcp-read cannot read encrypted members.");

    ArchiveCache& cache = ArchiveCache::instance();
    auto bytes = cache.member(key, member->name);
    if (bytes == nullptr) {
      BytesResult taken = extract(file.fd.get(), static_cast<std::uint64_t>(file.st.st_size), *member,
                                  limits.archive, cancel);
      if (cancel.cancelled()) return ReadOutcome::stopped();
      if (auto* error = std::get_if<std::string>(&taken))
        return refusal("Cannot read " + member_path + " from the archive: " + *error + ".");
      bytes = std::get<std::shared_ptr<const std::string>>(taken);
      cache.put_member(key, member->name, bytes);
    }
    std::string error;
    auto opened = memory_file(*bytes, member_path, &error);
    if (!opened) return refusal("Cannot read " + member_path + ": " + error + ".");
    file = std::move(*opened);
    key += '\0' + member->name;
    shown = member_path;
    rest = tail;
    if (rest.empty()) {
      // The member read as any file is; an archive among them lists itself, through the nesting.
      NestingScope scope(Nesting{file.fd.get(), key, depth + 1});
      return read_opened(file, request, limits, cancel);
    }
    if (const FileKind kind = kind_of(file); kind != kArchiveKind)
      return refusal("Cannot read " + shown + "/" + rest + ": " + shown + " is " + std::string(readers::article(kind)) +
                     ", not an archive, so nothing lies inside it.");
  }
}

}  // namespace mcpread::readers::archive
