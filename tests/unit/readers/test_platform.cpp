// The operating-system specific calls behind mcpread::platform (common/), on the systems where
// they are built: Linux (this suite) and Windows (mcpread_platform_tests, cross-built and run
// under Wine by scripts/windows/prove.sh). Each system's cases check that system's calls.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <unistd.h>

#include <array>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "mcpread/common/platform.hpp"

using namespace mcpread;

TEST_CASE("platform: random bytes fill the buffer and differ between calls") {
  std::array<unsigned char, 32> a{}, b{};
  REQUIRE(platform::random_bytes(a.data(), a.size()) == static_cast<std::ptrdiff_t>(a.size()));
  REQUIRE(platform::random_bytes(b.data(), b.size()) == static_cast<std::ptrdiff_t>(b.size()));
  CHECK(a != b);  // 2^-256 to fail by chance
  CHECK(a != std::array<unsigned char, 32>{});
}

#if defined(__linux__)
TEST_CASE("platform: the executable's path") {
  const std::string exe = platform::executable_path();
  CHECK(exe.ends_with("/mcpread_readers_tests"));
  CHECK(::access(exe.c_str(), X_OK) == 0);
}

TEST_CASE("platform: an anonymous file opens by its path while its descriptor is open") {
  platform::AnonymousFile f = platform::anonymous_file("platform-test");
  REQUIRE(f.fd >= 0);
  CHECK(f.path == "/proc/self/fd/" + std::to_string(f.fd));
  CHECK(::write(f.fd, "bytes", 5) == 5);
  std::ifstream in(f.path, std::ios::binary);
  const std::string read_back{std::istreambuf_iterator<char>(in), {}};
  CHECK(read_back == "bytes");
  CHECK((::fcntl(f.fd, F_GETFD) & FD_CLOEXEC) != 0);
  ::close(f.fd);
}

TEST_CASE("platform: a pipe gets the size asked for") {
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  platform::enlarge_pipe(fds[1], 1 << 18);
  CHECK(::fcntl(fds[1], F_GETPIPE_SZ) == 1 << 18);
  ::close(fds[0]);
  ::close(fds[1]);
}

TEST_CASE("platform: Linux loads libraries by their soname") {
  CHECK(platform::library_file_name("libvips.so.42") == "libvips.so.42");
  CHECK(platform::library_file_name("libmcpread_pdf.so") == "libmcpread_pdf.so");
}
#endif

#if defined(_WIN32)
TEST_CASE("platform: the executable's path is the .exe's, a drive path in UTF-8") {
  const std::string exe = platform::executable_path();
  CHECK(exe.ends_with("\\mcpread_platform_tests.exe"));
  REQUIRE(exe.size() > 3);
  CHECK(exe[1] == ':');
  CHECK(exe[2] == '\\');
  // The same file, opened through the wide API with the path converted back.
  const std::wstring wide = platform::windows::widen(exe);
  CHECK(::GetFileAttributesW(wide.c_str()) != INVALID_FILE_ATTRIBUTES);
}

TEST_CASE("platform: UTF-8 and UTF-16 convert both ways, outside the BMP too") {
  const std::string text = "caf\xC3\xA9 \xE6\x97\xA5\xE6\x9C\xAC \xF0\x9F\x98\x80";  // café 日本 😀
  const std::wstring wide = platform::windows::widen(text);
  CHECK(wide.size() == 10);  // 😀 is a surrogate pair
  CHECK(wide[3] == L'\u00E9');
  CHECK(platform::windows::narrow(wide) == text);
  // Invalid UTF-8 becomes U+FFFD instead of vanishing.
  CHECK(platform::windows::widen("a\xFF" "b") == L"a\uFFFDb");
}

TEST_CASE("platform: Windows' anonymous file holds bytes, has no path and leaves nothing behind") {
  const std::filesystem::path temp = std::filesystem::temp_directory_path();
  const auto ours = [&] {  // GetTempFileNameW's names: "mcr" and four hex digits
    std::size_t n = 0;
    for (const auto& e : std::filesystem::directory_iterator(temp))
      if (e.path().filename().wstring().starts_with(L"mcr")) ++n;
    return n;
  };
  const std::size_t before = ours();
  const platform::AnonymousFile f = platform::anonymous_file("platform-test");
  REQUIRE(f.fd >= 0);
  CHECK(f.path.empty());
  CHECK(ours() == before + 1);
  CHECK(::_write(f.fd, "hello", 5) == 5);
  CHECK(::_lseek(f.fd, 0, SEEK_SET) == 0);
  char buf[8] = {};
  CHECK(::_read(f.fd, buf, sizeof buf) == 5);
  CHECK(std::string(buf, 5) == "hello");
  CHECK(::_close(f.fd) == 0);
  CHECK(ours() == before);  // deleted with its last handle
}

TEST_CASE("platform: Windows loads libraries by their DLL names") {
  CHECK(platform::library_file_name("libvips.so.42") == "libvips-42.dll");
  CHECK(platform::library_file_name("libzip.so.4") == "libzip-4.dll");
}
#endif
