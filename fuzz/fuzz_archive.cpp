// fuzz_archive: the archive reader on arbitrary file contents. The input is the archive: it is
// listed (libarchive's format and filter bidders, the entry walk, the names, the limits), the
// listing rendered a page at a time, and its first file members taken out. Each input is read
// twice: with the defaults, and with tight limits (bytes per member and per pass, entries, ratio,
// page size) picked from a hash of the input.
//
// Checked: every text block is valid UTF-8; an error is one text block; the entries shown are a
// range inside the listing; a member taken out is never larger than the member limit.
//
// Readers fuzzed: archive.
#include "archive/archive_index.hpp"
#include "archive/archive_reader.hpp"
#include "fuzz_check.hpp"
#include "reader_checks.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <variant>

namespace {

using mcpread::fuzz::check;
using mcpread::fuzz::check_blocks;
using mcpread::fuzz::fnv1a;
namespace readers = mcpread::readers;
namespace archive = mcpread::readers::archive;

// One memfd for the whole run, rewritten for each input.
int archive_fd() {
  static const int fd = memfd_create("fuzz.archive", 0);
  check(fd >= 0, "memfd_create works");
  return fd;
}

void check_listing(const readers::ReadOutcome& o) {
  if (!check_blocks(o)) return;
  const auto entries = o.meta.at("entries").get<std::uint64_t>();
  if (entries == 0) return;
  const auto start = o.meta.at("start_entry").get<std::uint64_t>();
  const auto end = o.meta.at("end_entry").get<std::uint64_t>();
  check(start >= 1 && start <= end && end <= entries, "the entries shown lie inside the listing");
  check(o.meta.contains("next_offset") == (end < entries), "next_offset is given when entries remain");
}

void read_archive(std::uint64_t size, const readers::ReadLimits& limits, const readers::ReadRequest& request) {
  const int fd = archive_fd();
  const readers::CancelToken never;
  const archive::IndexResult listed = archive::build_index(fd, size, "fuzz.tar.gz", limits.archive, never);
  const auto* index = std::get_if<std::shared_ptr<const archive::Index>>(&listed);
  if (index == nullptr) {
    check(!std::get<std::string>(listed).empty(), "a refusal says why");
    return;
  }
  check((*index)->members.size() <= limits.archive.max_entries, "no more entries than the limit are listed");
  check_listing(archive::list_members("/fuzz/a.tar.gz", **index, "", request, limits));
  int taken = 0;
  for (const archive::Member& m : (*index)->members) {
    if (m.type != archive::MemberType::file || m.encrypted || taken++ == 3) continue;
    const archive::BytesResult bytes = archive::extract(fd, size, m, limits.archive, never);
    if (const auto* b = std::get_if<std::shared_ptr<const std::string>>(&bytes))
      check((*b)->size() <= limits.archive.max_member_bytes, "a member is never larger than the limit");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const int fd = archive_fd();
  check(ftruncate(fd, 0) == 0, "the memfd can be emptied");
  check(size == 0 || pwrite(fd, data, size, 0) == static_cast<ssize_t>(size), "the memfd takes the input");

  readers::ReadLimits defaults;
  defaults.archive.max_total_bytes = 64u << 20;  // keeps each execution short
  read_archive(size, defaults, readers::ReadRequest{});

  const std::uint32_t h = fnv1a(data, size);
  readers::ReadLimits tight;
  tight.archive.max_member_bytes = std::uint64_t{256} << (h & 7);
  tight.archive.max_total_bytes = std::uint64_t{4096} << ((h >> 3) & 7);
  tight.archive.max_entries = 1 + (h >> 6) % 8;
  tight.archive.max_ratio = 2 + (h >> 9) % 50;
  tight.text.max_output_bytes = 200 + (h >> 12) % 800;
  readers::ReadRequest paged;
  paged.offset = 1 + (h >> 16) % 4;
  paged.limit = 1 + (h >> 18) % 4;
  read_archive(size, tight, paged);
  return 0;
}
