// Confinement to the allowed roots: what lies outside is refused, missing files get suggestions,
// special files and unreadable ones are refused with a sentence.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <future>
#include <optional>
#include <string>
#include <vector>

#include "access_test_util.hpp"
#include "fixtures.hpp"
#include "mcpread/readers/access.hpp"

namespace fs = std::filesystem;
using mcpread::readers::open_in_roots;
using mcpread::readers::Roots;
using mcpread::readers::similar_names;
using mcpread::test::TempDir;
using namespace mcpread::test::access_util;

TEST_CASE("access: open_in_roots refuses what lies outside the roots") {
  TempDir root;
  TempDir outside;
  const auto secret = outside.write("secret.txt", "top secret");
  const Roots roots = roots_of({root.path().string()});
  const std::string r = root.path().string();

  SUBCASE("an absolute path outside") {
    CHECK(error_of(open_in_roots(roots, secret.string())) ==
          outside_message(secret.string(), r));
  }
  SUBCASE(".. escapes, relative and absolute") {
    const std::string rel = "../" + outside.path().filename().string() + "/secret.txt";
    // Messages name the normalised absolute path the request stands for.
    CHECK(error_of(open_in_roots(roots, rel)) == outside_message(secret.string(), r));
    const std::string abs = r + "/../" + outside.path().filename().string() + "/secret.txt";
    CHECK(error_of(open_in_roots(roots, abs)) == outside_message(secret.string(), r));
    CHECK(error_of(open_in_roots(roots, "../../../../../../../etc/passwd")) ==
          outside_message("/etc/passwd", r));
  }
  SUBCASE("a symbolic link from inside to outside") {
    fs::create_symlink(secret, root.path() / "link");
    CHECK(error_of(open_in_roots(roots, r + "/link")) ==
          "Access denied: " + r +
              "/link is a symbolic link that leads outside the allowed roots (" + r + ") to " +
              secret.string() + ".");
  }
  SUBCASE("a path through a symbolic link to an outside directory") {
    fs::create_directory_symlink(outside.path(), root.path() / "ldir");
    CHECK(error_of(open_in_roots(roots, "ldir/secret.txt")) ==
          "Access denied: " + r + "/ldir/secret.txt goes through the symbolic link " + r +
              "/ldir, which leads outside the allowed roots (" + r + ") to " + secret.string() +
              ".");
  }
  SUBCASE("the link that leads out is named, not one that stays inside") {
    fs::create_directory(root.path() / "real");
    fs::create_directory_symlink(root.path() / "real", root.path() / "alias");
    fs::create_directory_symlink(outside.path(), root.path() / "real/out");
    CHECK(error_of(open_in_roots(roots, "alias/out/secret.txt")) ==
          "Access denied: " + r + "/alias/out/secret.txt goes through the symbolic link " + r +
              "/alias/out, which leads outside the allowed roots (" + r + ") to " +
              secret.string() + ".");
  }
  SUBCASE("a missing file outside reveals no names there") {
    const std::string p = outside.path().string() + "/secre.txt";
    const std::string msg = error_of(open_in_roots(roots, p));
    CHECK(msg == outside_message(p, r));
    CHECK(msg.find("secret.txt") == std::string::npos);
    const std::string deep = outside.path().string() + "/no/such/dir/file";
    CHECK(error_of(open_in_roots(roots, deep)) == outside_message(deep, r));
  }
  SUBCASE("no roots at all") {
    CHECK(error_of(open_in_roots(Roots{}, "x")) ==
          "Access denied: no directory is allowed (the list of allowed roots is empty), so x "
          "cannot be read.");
  }
}

TEST_CASE("access: missing files get suggestions from their directory") {
  TempDir t;
  const std::string r = t.path().string();
  const Roots roots = roots_of({r});
  t.write("README.md", "# hi");

  SUBCASE("a transposition") {
    CHECK(error_of(open_in_roots(roots, "reamde.md")) ==
          "File not found: " + r + "/reamde.md. Did you mean: " + r + "/README.md?");
  }
  SUBCASE("another case") {
    CHECK(error_of(open_in_roots(roots, r + "/readme.md")) ==
          "File not found: " + r + "/readme.md. Did you mean: " + r + "/README.md?");
  }
  SUBCASE("nothing similar") {
    CHECK(error_of(open_in_roots(roots, "zzzz-nothing.txt")) ==
          "File not found: " + r + "/zzzz-nothing.txt.");
  }
  SUBCASE("best first, at most three") {
    for (const char* n : {"main.cpp", "main.hpp", "main.c", "domain.txt", "mains.cpp", "man.cpp"})
      t.write(std::string("src/") + n, "");
    CHECK(error_of(open_in_roots(roots, "src/mian.cpp")) ==
          "File not found: " + r + "/src/mian.cpp. Did you mean: " + r + "/src/main.cpp, " + r +
              "/src/man.cpp, " + r + "/src/main.hpp?");
  }
  SUBCASE("a missing directory on the way") {
    t.write("src/main.cpp", "");
    CHECK(error_of(open_in_roots(roots, "scr/main.cpp")) ==
          "File not found: " + r + "/scr/main.cpp. The directory " + r +
              "/scr does not exist. Did you mean: " + r + "/src?");
  }
  SUBCASE("a broken symbolic link") {
    fs::create_symlink(t.path() / "gone", t.path() / "dangling");
    CHECK(error_of(open_in_roots(roots, "dangling")) ==
          "File not found: " + r + "/dangling is a symbolic link whose target does not exist.");
  }
  SUBCASE("a symbolic link loop") {
    fs::create_symlink(t.path() / "loop2", t.path() / "loop1");
    fs::create_symlink(t.path() / "loop1", t.path() / "loop2");
    CHECK(error_of(open_in_roots(roots, r + "/loop1")) ==
          "Cannot read " + r + "/loop1: symbolic link loop (Too many levels of symbolic links).");
  }
}

TEST_CASE("access: similar_names") {
  TempDir t;
  for (const char* n : {"config.yaml", "Config.yml", "notes.txt", "config.json", "other.md"})
    t.write(n, "");
  SUBCASE("case-insensitive, best first, the name itself skipped") {
    CHECK(similar_names(t.path(), "config.yaml") ==
          std::vector<std::string>{"Config.yml", "config.json"});
  }
  SUBCASE("prefix") {
    CHECK(similar_names(t.path(), "conf", 1) == std::vector<std::string>{"Config.yml"});
  }
  SUBCASE("same stem, other extension") {
    CHECK(similar_names(t.path(), "notes.markdown") == std::vector<std::string>{"notes.txt"});
  }
  SUBCASE("a missing directory has no names") {
    CHECK(similar_names(t.path() / "missing", "x").empty());
  }
}

TEST_CASE("access: special files are refused without being opened") {
  TempDir t;
  const std::string r = t.path().string();
  const Roots roots = roots_of({r});

  SUBCASE("a FIFO, at once") {
    const std::string fifo = r + "/pipe";
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    auto future = std::async(std::launch::async, [&] { return open_in_roots(roots, fifo); });
    if (future.wait_for(std::chrono::seconds(5)) != std::future_status::ready) {
      // Unblock a reader stuck in open() so that the test fails instead of hanging.
      const int w = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
      if (w >= 0) ::close(w);
      FAIL("open_in_roots blocked on a FIFO");
    }
    CHECK(error_of(future.get()) ==
          fifo + " is a FIFO (named pipe); only regular files and directories can be read.");
  }
  SUBCASE("a socket") {
    const std::string path = r + "/sock";
    const int s = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    REQUIRE(s >= 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    REQUIRE(path.size() < sizeof addr.sun_path);
    path.copy(addr.sun_path, path.size());
    REQUIRE(::bind(s, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
    CHECK(error_of(open_in_roots(roots, path)) ==
          path + " is a socket; only regular files and directories can be read.");
    ::close(s);
  }
  SUBCASE("/dev/null when /dev is a root") {
    CHECK(error_of(open_in_roots(roots_of({"/dev"}), "/dev/null")) ==
          "/dev/null is a character device; only regular files and directories can be read.");
  }
}

TEST_CASE("access: permission denied") {
  TempDir t;
  const auto file = t.write("locked.txt", "x");
  t.write("closed/inside.txt", "x");
  REQUIRE(::chmod(file.c_str(), 0) == 0);
  REQUIRE(::chmod((t.path() / "closed").c_str(), 0) == 0);
  REQUIRE(::chmod(t.path().c_str(), 0755) == 0);  // "nobody" must reach the files
  const Roots roots = roots_of({t.path().string()});
  const std::string r = t.path().string();

  SUBCASE("an unreadable file") {
    const auto got = unprivileged([&] { return error_of(open_in_roots(roots, file.string())); });
    if (!got) return;
    CHECK(*got == "Permission denied: cannot read " + file.string() +
                      " (Permission denied). Check the file's permissions.");
  }
  SUBCASE("a directory on the way that cannot be searched") {
    const auto got = unprivileged([&] { return error_of(open_in_roots(roots, "closed/inside.txt")); });
    if (!got) return;
    CHECK(*got == "Permission denied: cannot read " + r + "/closed/inside.txt: the directory " + r +
                      "/closed cannot be searched (Permission denied). Check the directory's "
                      "permissions.");
  }
}
