#include "package/open.hpp"

#include "mcpread/readers/utf8.hpp"
#include "package/part_cache.hpp"

#include <algorithm>

namespace mcpread::readers::package {
namespace {

// Opens with `open_zip` once the head is known not to be an OLE2 compound file.
template <class OpenZip>
std::variant<Opened, ReadOutcome> finish(Opened opened, const Expected& expected, OpenZip&& open_zip) {
  opened.cannot = opened.path + " cannot be read as " + std::string(expected.article) + ": ";
  std::string error;
  opened.zip = open_zip(&error);
  if (opened.zip == nullptr) return ReadOutcome::error(opened.cannot + error + ".", std::move(opened.meta));
  return std::variant<Opened, ReadOutcome>(std::move(opened));  // GCC 10 (bullseye) does not convert on return
}

}  // namespace

ZipLimits zip_limits(const ReadLimits& limits) {
  ZipLimits zip;
  zip.max_total_bytes = limits.office_max_unpacked_bytes;
  zip.max_entry_bytes = std::min(zip.max_entry_bytes, limits.office_max_unpacked_bytes);
  return zip;
}

const std::vector<ReaderOption>& zip_options() {
  static const std::vector<ReaderOption> options = {limit_option<&ReadLimits::office_max_unpacked_bytes>(
      "--office-max-unpacked-bytes",
      "bytes unpacked from one zip-based document (DOCX, ODT, XLSX, ODS, PPTX, ODP, EPUB) at most (zip bombs)", 1 << 20,
      UINT64_MAX)};
  return options;
}

std::variant<Opened, ReadOutcome> open(const OpenedFile& file, const ZipLimits& limits, const Expected& expected) {
  Opened opened;
  opened.path = utf8::sanitized(file.path.string());
  const auto size = static_cast<std::uint64_t>(file.st.st_size);
  opened.meta = {{"path", opened.path}, {"size", size}};
  if (const auto head = zip_head::compound_file_head(file.fd.get(), size))
    return ReadOutcome::error(zip_head::compound_file_message(opened.path, *head, expected.ole2), std::move(opened.meta));
  opened.cache_key = PartCache::key_of(file);
  const int fd = file.fd.get();
  return finish(std::move(opened), expected,
                [&](std::string* error) { return ZipArchive::open_fd(fd, limits, error); });
}

std::variant<Opened, ReadOutcome> open(std::string_view bytes, std::string_view name, const ZipLimits& limits,
                                       const Expected& expected) {
  Opened opened;
  opened.path = utf8::sanitized(name);
  opened.meta = {{"path", opened.path}, {"size", bytes.size()}};
  if (zip_head::is_compound_file(bytes))
    return ReadOutcome::error(zip_head::compound_file_message(opened.path, bytes, expected.ole2), std::move(opened.meta));
  return finish(std::move(opened), expected,
                [&](std::string* error) { return ZipArchive::open_memory(bytes, limits, error); });
}

}  // namespace mcpread::readers::package
