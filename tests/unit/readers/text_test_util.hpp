#pragma once
// Helpers shared by the text reader's tests: a file written and read with read_text, and the
// answer's one text block.
#include "mcpread/readers/text.hpp"
#include "mcpread/readers/utf8.hpp"

#include "fixtures.hpp"
#include "tool_wording.hpp"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <stdexcept>
#include <string>

namespace mcpread::test::text_util {

inline readers::OpenedFile open_file(const std::filesystem::path& path) {
  const int fd = open_read_only(path);
  if (fd < 0) throw std::runtime_error("cannot open " + path.string());
  readers::OpenedFile f{readers::UniqueFd(fd), {}, path};
  ::fstat(fd, &f.st);
  return f;
}

// `content` written to `name` in `dir`, then read (in the server's wording).
inline readers::ReadOutcome read(const TempDir& dir, const std::string& content,
                                 const readers::TextOptions& options = {}, const std::string& name = "f.txt") {
  const auto path = dir.write(name, content);
  return readers::read_text(open_file(path), tool_worded(options), readers::CancelToken{});
}

// The answer's single text block, checked to be valid UTF-8.
inline std::string text_of(const readers::ReadOutcome& o) {
  REQUIRE(o.blocks.size() == 1);
  const auto& text = std::get<readers::TextBlock>(o.blocks[0]).text;
  CHECK(readers::utf8::is_valid(text));
  return text;
}

inline const std::string R = "\xEF\xBF\xBD";  // U+FFFD
inline const std::string kEllipsis = " \xE2\x80\xA6 ";

inline std::string repeat(const std::string& s, std::size_t n) {
  std::string r;
  r.reserve(s.size() * n);
  for (std::size_t i = 0; i < n; ++i) r += s;
  return r;
}

}  // namespace mcpread::test::text_util
