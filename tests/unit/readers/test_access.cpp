// Confinement to the allowed roots: resolution, refusals, suggestions, special files.
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

#include "fixtures.hpp"
#include "mcpread/readers/access.hpp"

namespace fs = std::filesystem;
using mcpread::readers::AccessError;
using mcpread::readers::AccessResult;
using mcpread::readers::DirectoryTarget;
using mcpread::readers::open_in_roots;
using mcpread::readers::OpenedFile;
using mcpread::readers::Roots;
using mcpread::readers::similar_names;
using mcpread::readers::UniqueFd;
using mcpread::test::TempDir;

namespace {

Roots roots_of(const std::vector<std::string>& dirs) {
  Roots roots;
  std::string error;
  REQUIRE_MESSAGE(Roots::from_paths(dirs, &roots, &error), error);
  return roots;
}

std::string error_of(const AccessResult& r) {
  REQUIRE(std::holds_alternative<AccessError>(r));
  return std::get<AccessError>(r).message;
}

std::string read_all(int fd) {
  std::string out;
  char buf[256];
  ssize_t n = 0;
  while ((n = ::read(fd, buf, sizeof buf)) > 0) out.append(buf, static_cast<std::size_t>(n));
  return out;
}

// Runs `f` without the privileges to bypass file permissions: directly for an ordinary user,
// as "nobody" in a child process for root. Empty (with a MESSAGE) when that is impossible.
constexpr std::string_view kCannotDrop = "(cannot drop privileges)";

std::optional<std::string> unprivileged(const std::function<std::string()>& f) {
  if (::geteuid() != 0) return f();
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    ::close(fds[0]);
    std::string msg(kCannotDrop);
    try {
      if (::setgid(65534) == 0 && ::setuid(65534) == 0) msg = f();
    } catch (...) {
      msg = "(the check threw in the child process)";
    }
    (void)!::write(fds[1], msg.data(), msg.size());
    ::_exit(0);
  }
  ::close(fds[1]);
  std::string got = read_all(fds[0]);
  ::close(fds[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  if (got == kCannotDrop) {
    MESSAGE("running as root and unable to become nobody: EACCES cannot be tested here");
    return std::nullopt;
  }
  return got;
}

bool fd_is_open(int fd) { return ::fcntl(fd, F_GETFD) != -1; }

std::string outside_message(const std::string& requested, const std::string& roots) {
  return "Access denied: " + requested + " is outside the allowed roots (" + roots +
         "). Read a file inside them, or start the server with the directory as a root.";
}

// Sets an environment variable for the scope of a test and restores it afterwards.
struct ScopedEnv {
  ScopedEnv(const char* n, const std::string& value) : name(n) {
    if (const char* v = std::getenv(n)) old = v;
    ::setenv(n, value.c_str(), 1);
  }
  ~ScopedEnv() { old ? (void)::setenv(name, old->c_str(), 1) : (void)::unsetenv(name); }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;
  const char* name;
  std::optional<std::string> old;
};

}  // namespace

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
