#pragma once
// What a file's first bytes say about a zip package, for the sniffers of the zip-based formats
// (DOCX, ODT and the other OOXML/ODF/EPUB packages): the entry names in the local headers the head
// holds, and the `mimetype` entry ODF and EPUB store first and uncompressed.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace mcpread::readers::zip_head {

struct ZipHead {
  bool zip = false;   // the bytes start with a zip local file header
  bool ole2 = false;  // an OLE2 compound file: an encrypted OOXML package or a legacy Office file
  std::string_view mimetype;            // the first entry's contents when it is a stored `mimetype`
  std::vector<std::string_view> names;  // entry names, in order, as far as the head holds them

  [[nodiscard]] bool has(std::string_view name) const;
  [[nodiscard]] bool has_prefix(std::string_view prefix) const;  // "word/", "xl/", "ppt/"
  // An OOXML package whose entries name this part folder ("word/"): [Content_Types].xml and an
  // entry under the folder.
  [[nodiscard]] bool ooxml(std::string_view folder) const;
};

ZipHead scan(std::span<const unsigned char> head);

// Whether an OLE2 compound file holds an EncryptionInfo stream (its name in UTF-16): Office's
// password-protected OOXML documents are such files, legacy .doc/.xls/.ppt files are not.
bool has_encryption_info(std::string_view compound_file);

// An OLE2 compound file met where a zip package was expected: the words of its refusal.
struct CompoundFileWords {
  std::string_view encrypted;  // what a password-protected one is ("Word document")
  std::string_view content;    // what cannot be read without the password ("text", "cells")
  std::string_view legacy;     // the legacy binary format it may be ("Word .doc")
  std::string_view expected;   // what it was to be ("a DOCX document")
};

bool is_compound_file(std::string_view bytes);
// The first 8 MiB of the file behind `fd` (where the stream directory naming EncryptionInfo
// lies) when it is an OLE2 compound file; nullopt when it is not.
std::optional<std::string> compound_file_head(int fd, std::uint64_t size);
// "<path> is a password-protected (encrypted) <encrypted>: its <content> cannot be read without
// the password." or "<path> is an OLE2 compound file (a legacy <legacy>?), not <expected>; it
// cannot be read as one."
std::string compound_file_message(std::string_view path, std::string_view bytes, const CompoundFileWords& words);

}  // namespace mcpread::readers::zip_head
