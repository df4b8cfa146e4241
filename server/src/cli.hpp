#pragma once
// Command line: allowed roots as positional arguments, options for logging, limits and workers.
#include "mcpread/readers/read.hpp"

#include <cstddef>
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

CliOutcome parse_cli(const std::vector<std::string>& args);
std::string usage();

}  // namespace mcpread::server
