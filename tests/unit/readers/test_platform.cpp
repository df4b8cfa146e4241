// The operating-system specific calls behind mcpread::platform (common/), on Linux, where they
// are built: the executable's path, anonymous files libraries open by path, pipe sizes, library
// names.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <unistd.h>

#include <fstream>
#include <iterator>
#include <string>

#include "mcpread/common/platform.hpp"

using namespace mcpread;

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
