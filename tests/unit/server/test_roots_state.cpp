#include "roots_state.hpp"

#include <doctest/doctest.h>

#include <atomic>
#include <chrono>

using namespace mcpread::server;
using namespace std::chrono_literals;

namespace {
mcpread::readers::Roots roots_of(const std::vector<std::string>& dirs) {
  mcpread::readers::Roots roots;
  std::string error;
  REQUIRE(mcpread::readers::Roots::from_paths(dirs, &roots, &error));
  return roots;
}
}  // namespace

TEST_CASE("roots state") {
  RootsState state(roots_of({"/tmp"}), false);
  SUBCASE("no request pending: the command line's roots at once") {
    CHECK(state.current(0ms)->describe() == "/tmp");
  }
  SUBCASE("a read waiting for the client's roots gives up when cancelled") {
    state.request_started();
    std::atomic<bool> cancelled{true};
    CHECK(state.current(60s, &cancelled) == nullptr);
  }
  SUBCASE("the client's roots apply once they arrive") {
    state.request_started();
    CHECK(state.apply_client_roots({"file:///tmp"}) == "reads are now confined to /tmp");
    std::atomic<bool> cancelled{false};
    CHECK(state.current(60s, &cancelled)->describe() == "/tmp");
  }
  SUBCASE("a client that never answers delays reads only until the deadline") {
    state.request_started();
    CHECK(state.current(0ms)->describe() == "/tmp");
  }
}

TEST_CASE("file URIs") {
  CHECK(RootsState::path_from_file_uri("file:///home/me/a%20b") == "/home/me/a b");
  CHECK(RootsState::path_from_file_uri("file://localhost/x") == "/x");
  CHECK(RootsState::path_from_file_uri("file://otherhost/x").empty());
  CHECK(RootsState::path_from_file_uri("https://example.com/x").empty());
  CHECK(RootsState::path_from_file_uri("file:///bad%zz").empty());
  CHECK(RootsState::path_from_file_uri("file:///nul%00byte").empty());
}
