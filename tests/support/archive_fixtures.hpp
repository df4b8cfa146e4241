#pragma once
// Archives built in the tests with libarchive's writer: tar, cpio, 7z, zip, iso... with any
// compression, holding files, directories, links and devices.
#include <string>
#include <string_view>
#include <vector>

namespace mcpread::test {

struct ArchiveItem {
  enum class Type { file, directory, symlink, hardlink, character_device, fifo };
  std::string name{};
  std::string data{};  // a file's bytes
  Type type = Type::file;
  std::string link{};  // a link's target
};

// The bytes of an archive in libarchive's `format` ("ustar", "gnutar", "pax", "cpio", "7zip",
// "zip", "iso9660", "ar") compressed with `filter` ("" for none, "gzip", "bzip2", "xz", "zstd").
std::string archive_bytes(const std::vector<ArchiveItem>& items, std::string_view format,
                          std::string_view filter = "");

// `bytes` compressed with `filter` alone, no archive around them (notes.txt.gz).
std::string compressed_bytes(std::string_view bytes, std::string_view filter);

}  // namespace mcpread::test
