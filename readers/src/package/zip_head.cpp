#include "package/zip_head.hpp"

#include "byte_signatures.hpp"
#include "file_io.hpp"
#include "mcpread/readers/registry.hpp"

#include <algorithm>

namespace mcpread::readers::zip_head {

bool ZipHead::has(std::string_view name) const {
  return std::find(names.begin(), names.end(), name) != names.end();
}

bool ZipHead::has_prefix(std::string_view prefix) const {
  return std::any_of(names.begin(), names.end(), [&](std::string_view n) { return n.starts_with(prefix); });
}

bool ZipHead::ooxml(std::string_view folder) const { return has("[Content_Types].xml") && has_prefix(folder); }

ZipHead scan(std::span<const unsigned char> b) {
  using sig::has_at;
  ZipHead z;
  z.ole2 = has_at(b, 0, "\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1");
  z.zip = has_at(b, 0, "PK\x03\x04");
  for (std::size_t at = 0; z.zip && at + 30 <= b.size() && has_at(b, at, "PK\x03\x04");) {
    const std::size_t name_len = sig::le16(b, at + 26), extra = sig::le16(b, at + 28);
    if (at + 30 + name_len > b.size()) break;
    const std::string_view name(reinterpret_cast<const char*>(&b[at + 30]), name_len);
    z.names.push_back(name);
    const std::size_t data = at + 30 + name_len + extra;
    const bool stored = sig::le16(b, at + 8) == 0;
    const std::size_t size = sig::le32(b, at + 18);
    if (at == 0 && name == "mimetype" && stored && data < b.size()) {
      // Its size, or when a data descriptor follows (size 0 here) up to the next "PK": a MIME
      // type never holds one.
      std::size_t len = size;
      if (len == 0) len = sig::find(b.subspan(data), "PK", 256).value_or(0);
      if (len <= 256 && data + len <= b.size())
        z.mimetype = std::string_view(reinterpret_cast<const char*>(&b[data]), len);
    }
    if ((sig::le16(b, at + 6) & 8) != 0) {  // sizes in a data descriptor after the data: find the next header
      const auto next = sig::find(b.subspan(std::min(data, b.size())), "PK\x03\x04", b.size());
      if (!next) break;
      at = data + *next;
    } else {
      at = data + size;
    }
  }
  return z;
}

bool has_encryption_info(std::string_view compound_file) {
  static constexpr char kEncryptionInfo[] = "E\0n\0c\0r\0y\0p\0t\0i\0o\0n\0I\0n\0f\0o";
  return compound_file.find(std::string_view(kEncryptionInfo, sizeof kEncryptionInfo - 1)) != std::string_view::npos;
}

bool is_compound_file(std::string_view bytes) { return bytes.starts_with("\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1"); }

std::optional<std::string> compound_file_head(int fd, std::uint64_t size) {
  char magic[8] = {};
  const auto got = file_io::pread_full(fd, magic, sizeof magic, 0);
  if (!got || *got != sizeof magic || !is_compound_file(std::string_view(magic, sizeof magic))) return std::nullopt;
  std::string bytes(static_cast<std::size_t>(std::min<std::uint64_t>(size, 8ull << 20)), '\0');
  bytes.resize(file_io::pread_full(fd, bytes.data(), bytes.size(), 0).value_or(0));
  return bytes;
}

std::string compound_file_message(std::string_view path, std::string_view bytes, const CompoundFileWords& w) {
  if (has_encryption_info(bytes))
    return std::string(path) + " is a password-protected (encrypted) " + std::string(w.encrypted) + ": its " +
           std::string(w.content) + " cannot be read without the password.";
  return std::string(path) + " is an OLE2 compound file (a legacy " + std::string(w.legacy) + "?), not " +
         std::string(w.expected) + "; it cannot be read as one.";
}

}  // namespace mcpread::readers::zip_head

namespace mcpread::readers {

const zip_head::ZipHead& SniffInput::zip() const {
  if (zip_scanned == nullptr) zip_scanned = std::make_shared<const zip_head::ZipHead>(zip_head::scan(head));
  return *zip_scanned;
}

}  // namespace mcpread::readers
