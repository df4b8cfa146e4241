#pragma once
// Shared by the hostile-input tables (test_hostile_*.cpp): the server's peak memory, the bounds
// it is held to, and the "still serving" check every row ends with.
#include "fixtures.hpp"
#include "mcp_client.hpp"
#include "process_memory.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

namespace mcpread::test::hostile {

// The peak resident set (VmHWM; on Windows the peak working set) of process `pid`, in KiB; 0
// when it cannot be read. Every row starts a fresh server, so the peak is that row's own.
inline std::uint64_t peak_rss_kib(pid_t pid) { return static_cast<std::uint64_t>(memory_of(pid).peak_kib); }

// Sanitizers add shadow memory and (ASan) a quarantine of freed blocks of up to 256 MiB, which
// would make the design bounds meaningless: under them each bound gets that overhead on top.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
inline constexpr bool sanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
inline constexpr bool sanitized = true;
#else
inline constexpr bool sanitized = false;
#endif
#else
inline constexpr bool sanitized = false;
#endif

// The bound for a design figure of `mib` MiB (a plain build holds the server to it exactly).
inline std::uint64_t bound_kib(std::uint64_t mib) {
  return (sanitized ? mib * 3 + 320 : mib) * 1024;
}

// The bound of a row beyond the design figure: nothing on Linux. On Windows the working set also
// holds the system's DLLs (under Wine, Wine's own): a server that has only answered a ping peaks
// at about 28 MiB there against 6 on Linux, so each row gets that idle peak, measured once per
// run, on top of its figure.
inline std::uint64_t system_share_kib() {
#if defined(_WIN32)
  static const std::uint64_t kib = [] {
    TempDir root;
    McpClient client({{root.path().string()}});
    client.initialize();
    client.request("ping");
    const std::uint64_t peak = peak_rss_kib(client.pid());
    MESSAGE("on Windows each peak memory bound has an idle server's peak on top: " << peak / 1024 << " MiB");
    return peak;
  }();
  return kib;
#else
  return 0;
#endif
}

// The row's peak memory is under `mib` MiB (and measurable at all).
inline void check_peak_under(McpClient& client, std::uint64_t mib, const std::string& why) {
  const std::uint64_t peak = peak_rss_kib(client.pid());
  const std::uint64_t bound = bound_kib(mib) + system_share_kib();
  MESSAGE("peak RSS " << peak / 1024 << " MiB (bound " << bound / 1024 << " MiB: " << why << ")");
  CHECK(peak > 0);
  CHECK_MESSAGE(peak < bound, "peak RSS " << peak << " KiB, bound " << bound << " KiB: " << why);
}

// The server answers the next request: a ping, then a small read when `small_file` is given.
inline void check_still_serving(McpClient& client, const std::string& small_file = {}) {
  const nlohmann::json pong = client.request("ping");
  CHECK(pong["result"] == nlohmann::json::object());
  if (!small_file.empty()) {
    const nlohmann::json r = client.call("read", {{"file_path", small_file}});
    CHECK_FALSE(r.contains("isError"));
  }
}

inline std::string text_of(const nlohmann::json& result) {
  if (!result.contains("content") || result["content"].empty() || !result["content"][0].contains("text"))
    return {};
  return result["content"][0]["text"].get<std::string>();
}

// A sparse file of `size` bytes holding `head` at its start: only the head takes disk space.
inline void write_sparse(const std::string& path, const std::string& head, std::uint64_t size) {
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    REQUIRE(out.write(head.data(), static_cast<std::streamsize>(head.size())));
  }
  std::error_code ec;
  std::filesystem::resize_file(path, size, ec);  // ftruncate: the rest is a hole
  REQUIRE_MESSAGE(!ec, ec.message());
}

// Text reads hold one 1 MiB chunk, at most 4 × 2001 bytes of a line, the 100 KiB answer and
// libmagic's database (about 15 MiB): 32 MiB leaves room for the allocator and the runtime.
inline constexpr std::uint64_t text_mib = 32;

// One row of a file table: the file(s) it writes, the read, and what the answer must be.
struct Row {
  const char* name;
  // Creates the file(s) under `root` and returns the read's arguments.
  std::function<nlohmann::json(const TempDir& root)> setup;
  // Checks the read's result (a tools/call result object).
  std::function<void(const nlohmann::json& result, const TempDir& root)> check;
  std::uint64_t bound_mib = text_mib;
  const char* why = "text reads stream 1 MiB chunks and keep a bounded prefix of each line";
};

// Each row in a SUBCASE of its own, with a fresh root and server: the answer, then that the
// server still serves, then its peak memory.
inline void run_rows(const std::vector<Row>& rows) {
  for (const Row& row : rows) {
    SUBCASE(row.name) {
      TempDir root;
      root.write("small.txt", "small\n");
      const nlohmann::json arguments = row.setup(root);
      McpClient client({{root.path().string()}});
      client.initialize();
      const nlohmann::json result = client.call("read", arguments);
      row.check(result, root);
      check_still_serving(client, "small.txt");
      check_peak_under(client, row.bound_mib, row.why);
    }
  }
}

}  // namespace mcpread::test::hostile
