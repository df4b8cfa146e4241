#include "archive_fixtures.hpp"

#include <archive.h>
#include <archive_entry.h>

#include <doctest/doctest.h>

namespace mcpread::test {
namespace {

struct Writer {
  archive* a = archive_write_new();
  std::string out;
  ~Writer() { archive_write_free(a); }
  static la_ssize_t write(archive*, void* data, const void* buf, size_t n) {
    static_cast<Writer*>(data)->out.append(static_cast<const char*>(buf), n);
    return static_cast<la_ssize_t>(n);
  }
  void open(std::string_view filter) {
    if (!filter.empty()) REQUIRE(archive_write_add_filter_by_name(a, std::string(filter).c_str()) == ARCHIVE_OK);
    archive_write_set_bytes_in_last_block(a, 1);
    REQUIRE(archive_write_open2(a, this, nullptr, write, nullptr, nullptr) == ARCHIVE_OK);
  }
};

}  // namespace

std::string archive_bytes(const std::vector<ArchiveItem>& items, std::string_view format, std::string_view filter) {
  Writer w;
  REQUIRE(archive_write_set_format_by_name(w.a, std::string(format).c_str()) == ARCHIVE_OK);
  w.open(filter);
  for (const ArchiveItem& item : items) {
    archive_entry* e = archive_entry_new();
    archive_entry_set_pathname(e, item.name.c_str());
    archive_entry_set_perm(e, 0644);
    archive_entry_set_mtime(e, 1700000000, 0);
    switch (item.type) {
      case ArchiveItem::Type::file:
        archive_entry_set_filetype(e, AE_IFREG);
        archive_entry_set_size(e, static_cast<la_int64_t>(item.data.size()));
        break;
      case ArchiveItem::Type::directory: archive_entry_set_filetype(e, AE_IFDIR); break;
      case ArchiveItem::Type::symlink:
        archive_entry_set_filetype(e, AE_IFLNK);
        archive_entry_set_symlink(e, item.link.c_str());
        break;
      case ArchiveItem::Type::hardlink:
        archive_entry_set_filetype(e, AE_IFREG);
        archive_entry_set_hardlink(e, item.link.c_str());
        break;
      case ArchiveItem::Type::character_device:
        archive_entry_set_filetype(e, AE_IFCHR);
        archive_entry_set_rdev(e, 0x0103);
        break;
      case ArchiveItem::Type::fifo: archive_entry_set_filetype(e, AE_IFIFO); break;
    }
    REQUIRE(archive_write_header(w.a, e) >= ARCHIVE_WARN);
    if (item.type == ArchiveItem::Type::file && !item.data.empty())
      REQUIRE(archive_write_data(w.a, item.data.data(), item.data.size()) == static_cast<la_ssize_t>(item.data.size()));
    archive_entry_free(e);
  }
  REQUIRE(archive_write_close(w.a) == ARCHIVE_OK);
  return w.out;
}

std::string compressed_bytes(std::string_view bytes, std::string_view filter) {
  Writer w;
  REQUIRE(archive_write_set_format_raw(w.a) == ARCHIVE_OK);
  w.open(filter);
  archive_entry* e = archive_entry_new();
  archive_entry_set_pathname(e, "data");
  archive_entry_set_filetype(e, AE_IFREG);
  archive_entry_set_size(e, static_cast<la_int64_t>(bytes.size()));
  REQUIRE(archive_write_header(w.a, e) == ARCHIVE_OK);
  REQUIRE(archive_write_data(w.a, bytes.data(), bytes.size()) == static_cast<la_ssize_t>(bytes.size()));
  archive_entry_free(e);
  REQUIRE(archive_write_close(w.a) == ARCHIVE_OK);
  return w.out;
}

}  // namespace mcpread::test
