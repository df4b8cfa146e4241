#pragma once
// Temporary directories and files for tests; everything is removed when the fixture dies.
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

namespace mcpread::test {

// UTF-8 text converted by iconv to `charset`, ending in its initial shift state, to build files in
// legacy charsets. Throws when iconv fails, unless `skip_unencodable` leaves out the characters
// the charset lacks.
// `n` bytes from a fixed linear congruential generator: the same bytes for the same seed on every
// run and machine (data that looks like noise to a charset or type detector).
std::string pseudo_random(std::size_t n, std::uint32_t seed);

std::string iconv_encode(const std::string& utf8_text, const std::string& charset,
                         bool skip_unencodable = false);

// `path` opened read-only, as the readers get files: not inherited by child processes (and in
// binary mode on Windows). -1 when it cannot be opened.
int open_read_only(const std::filesystem::path& path);

// The separator between a folder and a name in the paths the readers write: "/", or "\\" on
// Windows, as in `d + kSep + "name.pdf"`.
inline const std::string kSep(1, static_cast<char>(std::filesystem::path::preferred_separator));
// The file: URI the readers give `path`, percent-encoded as they encode it: file:///tmp/x/a.pdf,
// or file:///C:/Users/x/a.pdf on Windows. With `encoded_name` (already percent-encoded): the URI
// of `dir`/`encoded_name`.
std::string file_uri(const std::filesystem::path& path);
std::string file_uri(const std::filesystem::path& dir, std::string_view encoded_name);

// A PCM WAV file of `samples` 8-bit mono samples at 8,000 Hz.
std::string wav_file(std::uint32_t samples);

class TempDir {
 public:
  TempDir();  // a fresh directory under $TMPDIR (or /tmp), realpath'ed
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  [[nodiscard]] const std::filesystem::path& path() const { return path_; }
  // Writes `content` to path()/relative (creating parent directories) and returns the full path.
  std::filesystem::path write(const std::string& relative, std::string_view content) const;

 private:
  std::filesystem::path path_;
};

}  // namespace mcpread::test
