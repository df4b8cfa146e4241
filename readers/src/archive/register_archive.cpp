// The archive reader: zip, tar and its compressed forms, 7z, rar, iso, cpio, cab, ar through
// libarchive. A read of the archive lists its members; a member is read through a path
// (archive_path.cpp), with every reader.
#include "archive/archive_cache.hpp"
#include "archive/archive_path.hpp"
#include "archive/archive_reader.hpp"

#include "byte_signatures.hpp"
#include "file_io.hpp"
#include "mcpread/readers/registry.hpp"
#include "package/zip_head.hpp"

#include <array>

namespace mcpread::readers {
namespace {

using archive::kArchiveKind;

struct Signature {
  std::size_t at;
  std::string_view bytes;
  std::string_view mime;
  std::string_view description;
};

constexpr std::array kSignatures = {
    Signature{257, "ustar", "application/x-tar", "tar archive"},
    Signature{0, "\x1F\x8B", "application/gzip", "gzip-compressed data"},
    Signature{0, std::string_view("\xFD" "7zXZ\0", 6), "application/x-xz", "xz-compressed data"},
    Signature{0, "\x28\xB5\x2F\xFD", "application/zstd", "zstd-compressed data"},
    Signature{0, "LZIP\x01", "application/x-lzip", "lzip-compressed data"},
    Signature{0, "\x04\x22\x4D\x18", "application/x-lz4", "lz4-compressed data"},
    Signature{0, "\x1F\x9D", "application/x-compress", "compress'd data"},
    Signature{0, "7z\xBC\xAF\x27\x1C", "application/x-7z-compressed", "7-Zip archive"},
    Signature{0, "Rar!\x1A\x07", "application/vnd.rar", "RAR archive"},
    Signature{32769, "CD001", "application/x-iso9660-image", "ISO 9660 CD-ROM image"},
    Signature{0, "070707", "application/x-cpio", "cpio archive"},
    Signature{0, "070701", "application/x-cpio", "cpio archive"},
    Signature{0, "070702", "application/x-cpio", "cpio archive"},
    Signature{0, std::string_view("MSCF\0\0\0\0", 8), "application/vnd.ms-cab-compressed", "Microsoft Cabinet archive"},
    Signature{0, "!<arch>\n", "application/x-archive", "ar archive"},
    Signature{0, std::string_view("xar!\0\x1C", 6), "application/x-xar", "xar archive"},
};

// A zip is an archive only when it is no package another reader reads (DOCX, XLSX, PPTX by their
// [Content_Types].xml, ODF and EPUB by their stored `mimetype`), and not named as one: those
// readers keep their files, and their sniffers come first.
std::optional<Sniffed> sniff_zip(const SniffInput& in) {
  const zip_head::ZipHead& z = in.zip();
  if (!z.zip || !z.mimetype.empty() || z.has("[Content_Types].xml") || z.has("META-INF/container.xml")) return std::nullopt;
  const Reader* named = reader_registry().for_extension(in.extension);
  if (named != nullptr && named->kind != kArchiveKind) return std::nullopt;
  return Sniffed{"application/zip", "Zip archive"};
}

std::optional<Sniffed> sniff_archive(const SniffInput& in) {
  if (in.head.size() >= 4 && sig::has_at(in.head, 0, "PK")) return sniff_zip(in);
  for (const Signature& s : kSignatures)
    if (sig::has_at(in.head, s.at, s.bytes)) return Sniffed{s.mime, s.description};
  // bzip2: "BZh", a block size, then the first block's magic ("BZh" alone starts words too).
  if (sig::has_at(in.head, 0, "BZh") && in.head.size() > 3 && in.head[3] >= '1' && in.head[3] <= '9' &&
      sig::has_at(in.head, 4, "1AY&SY"))
    return Sniffed{"application/x-bzip2", "bzip2-compressed data"};
  return std::nullopt;
}

std::string describe_archive(const ReadLimits&) {
  return "zip, tar(.gz/.bz2/.xz/.zst), 7z, rar, iso: members listed; read one as <archive path>/<member "
         "path>.";
}

ReadOutcome read_as_archive(const ReaderCall& call) {
  const archive::Nesting* nesting = archive::nesting_of(call.file.fd.get());
  const std::string key = nesting != nullptr ? nesting->key : file_io::identity_key(call.file);
  const std::string shown = call.file.path.string();
  if (auto refused = archive::too_deep(shown, nesting != nullptr ? nesting->depth : 1, call.limits)) return std::move(*refused);
  auto listed = archive::index_of(call.file, key, shown, call.limits, call.cancel);
  if (auto* refused = std::get_if<ReadOutcome>(&listed)) return std::move(*refused);
  return archive::list_members(shown, *std::get<std::shared_ptr<const archive::Index>>(listed), "", call.request,
                               call.limits);
}

}  // namespace

bool register_archive_reader(ReaderRegistry& registry) {
  return registry.add(Reader{
      .kind = kArchiveKind,
      .article = "an archive",
      .noun = "archives",
      .describe = describe_archive,
      .counts = "entry",
      .extensions = {{"tar", "application/x-tar"},
                     {"tgz", "application/gzip"},
                     {"tbz2", "application/x-bzip2"},
                     {"txz", "application/x-xz"},
                     {"tzst", "application/zstd"},
                     {"7z", "application/x-7z-compressed"},
                     {"rar", "application/vnd.rar"},
                     {"iso", "application/x-iso9660-image"},
                     {"cpio", "application/x-cpio"},
                     {"cab", "application/vnd.ms-cab-compressed"}},
      .sniff = sniff_archive,
      .options = {limit_option<&ReadLimits::archive, &ArchiveLimits::max_member_bytes>(
                      "--archive-max-member-bytes", "bytes of one archive member read at most", 1024, UINT64_MAX),
                  limit_option<&ReadLimits::archive, &ArchiveLimits::max_total_bytes>(
                      "--archive-max-bytes", "bytes unpacked in one pass over an archive at most (bombs)", 1 << 20,
                      UINT64_MAX),
                  limit_option<&ReadLimits::archive, &ArchiveLimits::max_entries>(
                      "--archive-max-entries", "entries listed from one archive at most", 1, UINT64_MAX),
                  limit_option<&ReadLimits::archive, &ArchiveLimits::max_ratio>(
                      "--archive-max-ratio", "unpacked bytes per compressed byte at most (bombs)", 2, UINT64_MAX),
                  limit_option<&ReadLimits::archive, &ArchiveLimits::max_depth>(
                      "--archive-max-depth", "archives inside archives read, the outer one counting 1", 1, 16)},
      .read = read_as_archive,
      .read_inside = archive::read_inside,
      .release = [] { return archive::ArchiveCache::instance().release(); },
  });
}

}  // namespace mcpread::readers
