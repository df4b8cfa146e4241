#pragma once
// What a file is read as: the name of the reader that reads it ("text", "pdf", ...), which is
// also the `file_type` value that asks for it. A value, not an enum, so that a reader declares
// its own kind in its own folder (see registry.hpp) instead of in a list every format edits.
#include <string_view>

namespace mcpread::readers {

class FileKind {
 public:
  constexpr FileKind() = default;
  constexpr explicit FileKind(std::string_view name) : name_(name) {}
  constexpr std::string_view name() const { return name_; }
  friend constexpr bool operator==(FileKind a, FileKind b) { return a.name_ == b.name_; }

  // The kinds classification itself decides between (the built-in readers' kinds, and binary:
  // what no reader takes).
  static const FileKind text, json, image, pdf, notebook, audio, binary;

 private:
  std::string_view name_ = "binary";
};

inline constexpr FileKind FileKind::text{"text"};
inline constexpr FileKind FileKind::json{"json"};
inline constexpr FileKind FileKind::image{"image"};
inline constexpr FileKind FileKind::pdf{"pdf"};
inline constexpr FileKind FileKind::notebook{"notebook"};
inline constexpr FileKind FileKind::audio{"audio"};
inline constexpr FileKind FileKind::binary{"binary"};

constexpr std::string_view to_string(FileKind kind) { return kind.name(); }

}  // namespace mcpread::readers
