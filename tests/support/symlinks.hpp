#pragma once
// Symbolic links in tests. Windows makes them only with a privilege or developer mode, and Wine 8
// makes none: there a test that needs one says it is skipped instead of failing.
#include <doctest/doctest.h>

#include <filesystem>
#include <system_error>

namespace mcpread::test {

// Makes `link` pointing at `target`; false (and a "skipped" message) when Windows cannot.
inline bool make_symlink(const std::filesystem::path& target, const std::filesystem::path& link) {
  std::error_code ec;
  std::filesystem::create_symlink(target, link, ec);
#if defined(_WIN32)
  if (ec) {
    MESSAGE("skipped: no symbolic link could be made here (" << ec.message() << "; Wine 8 makes none)");
    return false;
  }
#endif
  REQUIRE_MESSAGE(!ec, "symbolic link " << link.string() << ": " << ec.message());
  return true;
}

}  // namespace mcpread::test
