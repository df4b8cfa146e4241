#pragma once
// Decides what kind of file this is from its name, its first bytes and libmagic.
// Magic bytes (each registered reader's sniffer) win over the extension; libmagic names what
// neither recognises.
#include "mcpread/readers/file_kind.hpp"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace mcpread::readers {

// The kind a `file_type` value asks for: the kind of a selectable registered reader ("text",
// "json", "image", ...) -> true; "auto", "binary" and anything else -> false, *kind untouched.
// (json is never detected, only asked for: JSON shown pretty-printed.)
[[nodiscard]] bool parse_file_kind(std::string_view name, FileKind* kind);

struct Classification {
  FileKind kind = FileKind::binary;
  std::string mime;         // e.g. "image/png", "text/plain", "application/x-executable"
  std::string description;  // libmagic's words where used, e.g. "ELF 64-bit LSB pie executable"
  // The kind the file name's extension promises, when it promises one (".png" -> image) and the
  // content says otherwise, e.g. a text file named x.png: lets the caller say what it really is.
  std::optional<FileKind> extension_kind;
};

// The MIME type a file name's extension promises ("notes.md" -> "text/markdown", "a.png" ->
// "image/png"), or empty when the name says nothing. Names only: the file is not looked at.
std::string_view mime_for_name(std::string_view file_name);

// `head` is the start of the file (the caller reads up to 64 KiB); `size` its full size.
Classification classify(std::string_view file_name, std::span<const unsigned char> head,
                        std::uint64_t size);

}  // namespace mcpread::readers
