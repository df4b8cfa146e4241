// Confinement to the allowed roots: descriptors, root lists, what opens inside them.
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
using mcpread::readers::AccessResult;
using mcpread::readers::DirectoryTarget;
using mcpread::readers::open_in_roots;
using mcpread::readers::OpenedFile;
using mcpread::readers::Roots;
using mcpread::readers::UniqueFd;
using mcpread::test::TempDir;
using namespace mcpread::test::access_util;

TEST_CASE("access: UniqueFd owns its descriptor") {
  SUBCASE("the destructor closes") {
    const int fd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    REQUIRE(fd >= 0);
    { UniqueFd owner(fd); }
    CHECK_FALSE(fd_is_open(fd));
  }
  SUBCASE("move assignment closes the old descriptor and takes the new one") {
    const int first = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    const int second = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    UniqueFd a(first);
    UniqueFd b(second);
    a = std::move(b);
    CHECK_FALSE(fd_is_open(first));
    CHECK(a.get() == second);
    CHECK(fd_is_open(second));
    CHECK_FALSE(b.valid());  // NOLINT(bugprone-use-after-move): moved-from state is specified
  }
  SUBCASE("move construction and release hand the descriptor over") {
    const int fd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    UniqueFd a(fd);
    UniqueFd b(std::move(a));
    CHECK(b.get() == fd);
    const int raw = b.release();
    CHECK(raw == fd);
    CHECK_FALSE(b.valid());
    CHECK(fd_is_open(fd));
    ::close(fd);
  }
}

TEST_CASE("access: Roots::from_paths resolves, checks and deduplicates") {
  TempDir t;
  fs::create_directories(t.path() / "a/x");
  fs::create_directories(t.path() / "b");
  const std::string a = (t.path() / "a").string();
  const std::string b = (t.path() / "b").string();

  SUBCASE("resolved directories, described in order") {
    Roots roots = roots_of({b, t.path().string() + "/a/x/../../a"});
    REQUIRE(roots.dirs().size() == 2);
    CHECK(roots.describe() == b + ", " + a);
  }
  SUBCASE("a symbolic link to a directory resolves to its target") {
    fs::create_directory_symlink(t.path() / "b", t.path() / "link");
    CHECK(roots_of({(t.path() / "link").string()}).describe() == b);
  }
  SUBCASE("duplicates and nested roots are dropped") {
    CHECK(roots_of({a, a + "/x", a}).describe() == a);
    CHECK(roots_of({a + "/x", a}).describe() == a);
  }
  SUBCASE("a missing directory is an error naming it") {
    Roots roots;
    std::string error;
    CHECK_FALSE(Roots::from_paths({a, t.path().string() + "/missing"}, &roots, &error));
    CHECK(error == "Cannot use " + t.path().string() +
                       "/missing as an allowed root: No such file or directory.");
  }
  SUBCASE("a file is not a directory") {
    const auto file = t.write("f.txt", "x");
    Roots roots;
    std::string error;
    CHECK_FALSE(Roots::from_paths({file.string()}, &roots, &error));
    CHECK(error == "Cannot use " + file.string() + " as an allowed root: Not a directory.");
  }
  SUBCASE("~ is the home directory") {
    ScopedEnv home("HOME", a);
    CHECK(roots_of({"~"}).describe() == a);
    CHECK(roots_of({"~/x"}).describe() == a + "/x");
  }
  SUBCASE("no directories: empty") {
    Roots roots = roots_of({});
    CHECK(roots.empty());
    CHECK(roots.describe() == "none");
  }
}

TEST_CASE("access: Roots::contains compares whole path components") {
  TempDir t;
  fs::create_directories(t.path() / "a");
  Roots roots = roots_of({(t.path() / "a").string()});
  CHECK(roots.contains(t.path() / "a"));
  CHECK(roots.contains(t.path() / "a/b/c"));
  CHECK_FALSE(roots.contains(t.path().string() + "/ab"));
  CHECK_FALSE(roots.contains(t.path()));
  CHECK(roots_of({"/"}).contains(t.path() / "anything"));
}

TEST_CASE("access: Roots::narrowed_by keeps the deeper of each pair") {
  TempDir t;
  fs::create_directories(t.path() / "a/b");
  fs::create_directories(t.path() / "c");
  const std::string top = t.path().string();
  const std::string a = top + "/a";
  const std::string ab = top + "/a/b";
  const std::string c = top + "/c";
  const Roots roots = roots_of({a});

  SUBCASE("a client root inside a root narrows to it") {
    CHECK(roots.narrowed_by({ab}, false).describe() == ab);
  }
  SUBCASE("a client root holding a root keeps the root") {
    CHECK(roots.narrowed_by({top}, false).describe() == a);
  }
  SUBCASE("a disjoint client root leaves nothing") {
    CHECK(roots.narrowed_by({c}, false).empty());
  }
  SUBCASE("missing client roots are dropped") {
    CHECK(roots.narrowed_by({top + "/missing", ab}, false).describe() == ab);
  }
  SUBCASE("several roots against one wide client root") {
    CHECK(roots_of({a, c}).narrowed_by({top}, false).describe() == a + ", " + c);
  }
  SUBCASE("replace: existing client roots replace the roots") {
    CHECK(roots.narrowed_by({c, top + "/missing"}, true).describe() == c);
  }
  SUBCASE("replace with no usable client root keeps the roots") {
    CHECK(roots.narrowed_by({top + "/missing"}, true).describe() == a);
  }
  SUBCASE("no client roots: unchanged") {
    CHECK(roots.narrowed_by({}, false).describe() == a);
  }
}

TEST_CASE("access: open_in_roots opens files and directories inside the roots") {
  TempDir t;
  const auto notes = t.write("notes.txt", "hello");
  fs::create_directories(t.path() / "sub");
  const Roots roots = roots_of({t.path().string()});

  SUBCASE("absolute path") {
    AccessResult r = open_in_roots(roots, notes.string());
    REQUIRE(std::holds_alternative<OpenedFile>(r));
    auto& f = std::get<OpenedFile>(r);
    CHECK(f.path == notes);
    CHECK(f.st.st_size == 5);
    CHECK(read_all(f.fd.get()) == "hello");
  }
  SUBCASE("relative paths resolve against the first root") {
    for (const char* p : {"notes.txt", "./sub/../notes.txt", "sub//../notes.txt"}) {
      CAPTURE(p);
      AccessResult r = open_in_roots(roots, p);
      REQUIRE(std::holds_alternative<OpenedFile>(r));
      CHECK(std::get<OpenedFile>(r).path == notes);
    }
  }
  SUBCASE("~ expands to $HOME") {
    ScopedEnv home("HOME", t.path().string());
    AccessResult r = open_in_roots(roots, "~/notes.txt");
    REQUIRE(std::holds_alternative<OpenedFile>(r));
    CHECK(std::get<OpenedFile>(r).path == notes);
    AccessResult d = open_in_roots(roots, "~");
    REQUIRE(std::holds_alternative<DirectoryTarget>(d));
    CHECK(std::get<DirectoryTarget>(d).path == t.path());
  }
  SUBCASE("a directory is a DirectoryTarget, with or without a trailing slash") {
    for (const std::string& p : {t.path().string() + "/sub", t.path().string() + "/sub/", std::string("sub")}) {
      AccessResult r = open_in_roots(roots, p);
      REQUIRE(std::holds_alternative<DirectoryTarget>(r));
      CHECK(std::get<DirectoryTarget>(r).path == t.path() / "sub");
    }
  }
  SUBCASE("a symbolic link that stays inside is followed") {
    fs::create_symlink(notes, t.path() / "alias");
    AccessResult r = open_in_roots(roots, (t.path() / "alias").string());
    REQUIRE(std::holds_alternative<OpenedFile>(r));
    CHECK(std::get<OpenedFile>(r).path == notes);
  }
  SUBCASE("an empty path is refused") {
    CHECK(error_of(open_in_roots(roots, "")) ==
          "The file path is empty. Give an absolute path, or one relative to " +
              t.path().string() + ".");
  }
  SUBCASE("a trailing slash on a file") {
    const std::string p = notes.string() + "/";
    CHECK(error_of(open_in_roots(roots, p)) ==
          "Cannot read " + notes.string() + ": " + notes.string() + " is not a directory (Not a directory).");
  }
  SUBCASE("a file used as a directory") {
    const std::string p = notes.string() + "/x";
    CHECK(error_of(open_in_roots(roots, p)) ==
          "Cannot read " + p + ": " + notes.string() + " is not a directory (Not a directory).");
  }
}
