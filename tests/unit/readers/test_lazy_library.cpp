// The lazy dlopen helper every optional library goes through: the first candidate that loads, a
// table of typed symbols, and an error naming the library and why when it cannot be used.
#include "lazy_library.hpp"

#include <doctest/doctest.h>

#include <atomic>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

using namespace mcpread::readers;

namespace {

struct LibC {
  decltype(&::strlen) length = nullptr;
};

}  // namespace

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
