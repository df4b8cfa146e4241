#pragma once
// Properties the fuzz targets check beyond "does not crash". A property that fails aborts, so
// libFuzzer (or replay_main.cpp, through the exit status) reports the input as a finding.
#include <cstdio>
#include <cstdlib>

namespace mcpread::fuzz {

inline void check(bool holds, const char* property) {
  if (holds) return;
  std::fprintf(stderr, "fuzz: property violated: %s\n", property);
  std::abort();
}

}  // namespace mcpread::fuzz
