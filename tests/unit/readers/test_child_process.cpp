// The bounded child process (readers/src/child_process.hpp) the parsers that can crash run in:
// each way a child can end, as the parent sees it and says it.
#include <doctest/doctest.h>

#include <string>

#include "child_process.hpp"

#if !defined(_WIN32)
#include <csignal>
#include <cstdlib>
#include <fcntl.h>
#include <new>
#include <sys/stat.h>
#include <unistd.h>
#endif

namespace child_process = mcpread::readers::child_process;
using child_process::Ending;
using mcpread::readers::CancelToken;

#if defined(_WIN32)

TEST_CASE("child process: Windows starts none and says why") {
  const child_process::Limits limits;
  const auto o = child_process::run([] { return std::string("never"); }, limits, CancelToken{});
  CHECK(o.ending == Ending::not_started);
  CHECK(o.refusal("libwv", "parsing it", limits) == "no process could be started for libwv: Windows has no fork");
}

#else

TEST_CASE("child process: each way a child ends") {
  child_process::Limits limits;
  SUBCASE("the work's message comes back whole") {
    const std::string big(300000, 'x');  // past one pipe buffer
    const auto o = child_process::run([&] { return "head" + big; }, limits, CancelToken{});
    CHECK(o.ending == Ending::sent);
    CHECK(o.message.size() == big.size() + 4);
    CHECK(o.message.starts_with("headxx"));
    CHECK(o.refusal("lib", "parsing it", limits).empty());
  }
  SUBCASE("a crash is the signal, said with its name") {
    const auto o = child_process::run(
        [] {
          std::raise(SIGSEGV);
          return std::string("after");
        },
        limits, CancelToken{});
    CHECK(o.ending == Ending::crashed);
    CHECK(o.signal == SIGSEGV);
    CHECK(o.message.empty());
    CHECK(o.refusal("libwv", "parsing it", limits) == "libwv crashed parsing it (signal 11, Segmentation fault)");
    CHECK(o.refusal("libwv", "parsing it", limits, ": the document is damaged") ==
          "libwv crashed parsing it (signal 11, Segmentation fault): the document is damaged");
  }
  SUBCASE("an exit with a status other than 0 is a crash too") {
    const auto o = child_process::run([]() -> std::string { std::_Exit(7); }, limits, CancelToken{});
    CHECK(o.ending == Ending::crashed);
    CHECK(o.status == 7);
    CHECK(o.refusal("libfreexl", "opening it", limits) == "libfreexl crashed opening it (it exited with status 7)");
    CHECK(o.refusal("libfreexl", "opening it", limits, ": damaged") ==
          "libfreexl crashed opening it (it exited with status 7): damaged");
  }
  SUBCASE("an exception out of the work ends the child with status 2") {
    const auto o = child_process::run([]() -> std::string { throw std::bad_alloc(); }, limits, CancelToken{});
    CHECK(o.ending == Ending::crashed);
    CHECK(o.status == 2);
  }
  SUBCASE("a child that stalls is stopped at the wall limit") {
    limits.wall = std::chrono::seconds(1);
    const auto o = child_process::run(
        [] {
          ::pause();  // what a child blocked on a lock held at the fork does
          return std::string();
        },
        limits, CancelToken{});
    CHECK(o.ending == Ending::out_of_time);
    CHECK(o.refusal("djvulibre", "decoding it", limits) == "djvulibre took longer than 1 s decoding it");
    // A child out of time says nothing of damage: the file may be fine, only slow.
    CHECK(o.refusal("djvulibre", "decoding it", limits, ": damaged") == "djvulibre took longer than 1 s decoding it");
  }
  SUBCASE("a child that spins is stopped at the CPU limit") {
    limits.cpu_seconds = 1;
    const auto o = child_process::run(
        [] {
          for (;;) asm volatile("" ::: "memory");  // spins, not optimised away
          return std::string();
        },
        limits, CancelToken{});
    CHECK(o.ending == Ending::out_of_time);
    CHECK(o.refusal("libwv", "parsing it", limits) == "libwv took longer than 1 s parsing it");
  }
  SUBCASE("a cancelled read stops the child") {
    const CancelToken cancel = CancelToken::make();
    cancel.cancel();
    const auto o = child_process::run(
        [] {
          ::pause();
          return std::string();
        },
        limits, cancel);
    CHECK(o.ending == Ending::cancelled);
    CHECK(o.refusal("libwv", "parsing it", limits) == "the read was cancelled");
  }
  SUBCASE("a message past the bound ends the child") {
    limits.max_message = 1u << 20;
    const auto o = child_process::run([] { return std::string(3u << 20, 'y'); }, limits, CancelToken{});
    CHECK(o.ending == Ending::too_large);
    CHECK(o.message.empty());
    CHECK(o.refusal("libmwaw", "parsing it", limits) == "what libmwaw made of it is larger than 1 MiB");
  }
  SUBCASE("the server's descriptors are not the child's, nor is its stdout") {
    int pipe_ends[2];
    REQUIRE(::pipe(pipe_ends) == 0);
    // Above the descriptors the child's own pipe may take.
    const int ends[2] = {::fcntl(pipe_ends[0], F_DUPFD, 40), ::fcntl(pipe_ends[1], F_DUPFD, 40)};
    ::close(pipe_ends[0]);
    ::close(pipe_ends[1]);
    const auto o = child_process::run(
        [&] {
          const bool open = ::fcntl(ends[0], F_GETFD) != -1 || ::fcntl(ends[1], F_GETFD) != -1;
          // Whatever a library prints lands on /dev/null, not on the MCP channel.
          struct stat out {};
          struct stat null {};
          const bool out_is_null = ::fstat(STDOUT_FILENO, &out) == 0 && ::stat("/dev/null", &null) == 0 &&
                                   out.st_rdev == null.st_rdev;
          return std::string(open ? "open" : "closed") + (out_is_null ? ",null" : ",stdout");
        },
        limits, CancelToken{});
    ::close(ends[0]);
    ::close(ends[1]);
    CHECK(o.ending == Ending::sent);
    CHECK(o.message == "closed,null");
  }
  SUBCASE("a descriptor the work needs is kept") {
    const int kept = ::open("/dev/null", O_RDONLY);
    REQUIRE(kept >= 0);
    limits.keep_descriptor = kept;
    const auto o = child_process::run(
        [&] { return std::string(::fcntl(kept, F_GETFD) != -1 ? "kept" : "closed"); }, limits, CancelToken{});
    ::close(kept);
    CHECK(o.message == "kept");
  }
  SUBCASE("the address space is bounded above what the server maps") {
    limits.extra_memory = 64u << 20;
    const auto o = child_process::run(
        [] {
          void* p = std::malloc(std::size_t{512} << 20);
          return std::string(p == nullptr ? "refused" : "granted");
        },
        limits, CancelToken{});
    // Refused by malloc; or, in the sanitizer builds, whose allocator dies rather than return
    // null, the child ends. Never granted.
    CHECK(o.message != "granted");
    CHECK((o.message == "refused" || o.ending == Ending::crashed));
  }
}

#endif
