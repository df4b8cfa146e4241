// The lazy dlopen helper every optional library goes through: the first candidate that loads, a
// table of typed symbols, and an error naming the library and why when it cannot be used. On
// Linux through dlopen (libc.so.6); on Windows through LoadLibraryExW (kernel32.dll), in the
// cross-built mcpread_platform_tests run under Wine.
#include "mcpread/common/lazy_library.hpp"

#include <doctest/doctest.h>

#include <atomic>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#if defined(_WIN32)
#include "mcpread/common/windows_text.hpp"  // windows.h
#endif

using namespace mcpread;

namespace {

struct LibC {
  decltype(&::strlen) length = nullptr;
};

}  // namespace

#if !defined(_WIN32)
TEST_CASE("lazy library: loads once and binds a table") {
  SUBCASE("the first candidate that loads is used, and its symbols are callable") {
    std::string used;
    LazyLibrary<LibC> lib({.needs = "Counting needs the C library (Debian package libc6)",
                           .candidates = {"libno-such-library.so.0", "libc.so.6"}},
                          [&](SymbolBinder& bind, LibC& a) {
                            used = bind.library();
                            return bind(&a.length, "strlen");
                          });
    std::string error = "untouched";
    const LibC* a = lib.get(&error);
    REQUIRE(a != nullptr);
    CHECK(error == "untouched");
    CHECK(used == "libc.so.6");
    CHECK(a->length("four") == 4);
  }
  SUBCASE("the binding runs once, whichever thread asks first") {
    std::atomic<int> binds = 0;
    LazyLibrary<LibC> lib({.needs = "x", .candidates = {"libc.so.6"}}, [&](SymbolBinder& bind, LibC& a) {
      ++binds;
      return bind(&a.length, "strlen");
    });
    std::vector<std::thread> threads;
    std::atomic<int> loaded = 0;
    for (int i = 0; i < 4; ++i)
      threads.emplace_back([&] { loaded += lib.get() != nullptr ? 1 : 0; });
    for (std::thread& t : threads) t.join();
    CHECK(lib.get() != nullptr);
    CHECK(loaded == 4);
    CHECK(binds == 1);
  }
}

TEST_CASE("lazy library: errors name the library and why") {
  SUBCASE("no candidate loads: dlerror() of each") {
    LazyLibrary<LibC> lib({.needs = "Counting needs libnothing (Debian package libnothing0)",
                           .candidates = {"libno-such-library.so.0", "libno-such-library.so.1"}},
                          [](SymbolBinder&, LibC&) { return true; });
    std::string error;
    CHECK(lib.get(&error) == nullptr);
    CHECK(error ==
          "Counting needs libnothing (Debian package libnothing0): libno-such-library.so.0: cannot open "
          "shared object file: No such file or directory; libno-such-library.so.1: cannot open shared "
          "object file: No such file or directory");
    std::string again;
    CHECK(lib.get(&again) == nullptr);  // the failure is kept, not retried
    CHECK(again == error);
  }
  SUBCASE("a missing symbol, with the suffix and the advice") {
    LazyLibrary<LibC> lib({.needs = "Counting needs the C library",
                           .candidates = {"libc.so.6"},
                           .symbol_suffix = "_72",
                           .missing_advice = " (rebuild it)"},
                          [](SymbolBinder& bind, LibC& a) { return bind(&a.length, "strlen"); });
    std::string error;
    CHECK(lib.get(&error) == nullptr);
    CHECK(error == "Counting needs the C library: libc.so.6 has no strlen_72 (rebuild it)");
  }
  SUBCASE("a library that does not start") {
    LazyLibrary<LibC> lib({.needs = "Counting needs the C library", .candidates = {"libc.so.6"}},
                          [](SymbolBinder& bind, LibC& a) {
                            return bind(&a.length, "strlen") && bind.fail(bind.library() + " failed to start");
                          });
    std::string error;
    CHECK(lib.get(&error) == nullptr);
    CHECK(error == "Counting needs the C library: libc.so.6 failed to start");
  }
}
#endif

#if defined(_WIN32)
namespace {
struct Kernel {
  decltype(&::lstrlenA) length = nullptr;
};
}  // namespace

TEST_CASE("lazy library: Windows loads a DLL by its name and binds its functions") {
  std::string used;
  LazyLibrary<Kernel> lib({.needs = "Counting needs kernel32",
                           .candidates = {"libno-such-library.so.0", "kernel32.dll"}},
                          [&](SymbolBinder& bind, Kernel& k) {
                            used = bind.library();
                            return bind(&k.length, "lstrlenA");
                          });
  std::string error = "untouched";
  const Kernel* k = lib.get(&error);
  REQUIRE(k != nullptr);
  CHECK(error == "untouched");
  CHECK(used == "kernel32.dll");
  CHECK(k->length("four") == 4);
}

TEST_CASE("lazy library: Windows errors name the DLL file and the system's reason") {
  LazyLibrary<Kernel> missing({.needs = "Reading images needs libvips",
                               .candidates = {"libno-such-library.so.42"}},
                              [](SymbolBinder&, Kernel&) { return true; });
  std::string error;
  CHECK(missing.get(&error) == nullptr);
  // The soname became the DLL's name; the reason ends with the system's error number (126: the
  // module was not found).
  CHECK(error.starts_with("Reading images needs libvips: libno-such-library-42.dll: "));
  CHECK(error.ends_with("(Windows error 126)"));
  // A Debian package's name means nothing on Windows: the bundle's bin folder is named instead.
  LazyLibrary<Kernel> packaged({.needs = "Reading archives needs libarchive (Debian package libarchive13)",
                                .candidates = {"libno-such-library.so.13"}},
                               [](SymbolBinder&, Kernel&) { return true; });
  CHECK(packaged.get(&error) == nullptr);
  CHECK(error.starts_with("Reading archives needs libarchive (a DLL the Windows bundle ships in bin\\ beside "
                          "mcp-read.exe: reinstall mcp-read): libno-such-library-13.dll: "));

  LazyLibrary<Kernel> no_symbol({.needs = "Counting needs kernel32",
                                 .candidates = {"kernel32.dll"},
                                 .symbol_suffix = "_72"},
                                [](SymbolBinder& bind, Kernel& k) { return bind(&k.length, "lstrlenA"); });
  CHECK(no_symbol.get(&error) == nullptr);
  CHECK(error == "Counting needs kernel32: kernel32.dll has no lstrlenA_72");
}
#endif
