#pragma once
// Command line and environment: allowed roots as positional arguments; every option can also be
// set with an MCP_READ_* environment variable (the command line wins).
#include "mcpread/readers/read.hpp"

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace mcpread::server {

struct Config {
  std::vector<std::string> roots;  // as given; empty means the current directory
  std::string log_level = "info";  // stderr log level (spdlog names)
  std::size_t max_message_bytes = 16u << 20;
  std::size_t workers = 0;  // 0: one per core, at least 2
  unsigned roots_wait_ms = 3000;  // how long a read waits for the client's roots/list answer
  bool structured_content = false;
  readers::ReadLimits limits;
};

struct CliOutcome {
  enum class Action { run, print_and_exit, fail } action = Action::run;
  std::string text;  // help or version text (stdout), or the error (stderr)
  Config config;
};

// `getenv` is the environment to read MCP_READ_* variables from (tests pass their own).
using Environment = std::function<const char*(const char*)>;
CliOutcome parse_cli(const std::vector<std::string>& args, const Environment& getenv);
std::string usage();

}  // namespace mcpread::server
