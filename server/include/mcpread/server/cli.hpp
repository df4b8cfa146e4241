#pragma once
// Command line and environment: allowed roots as positional arguments; every option can also be
// set with an MCP_READ_* environment variable (the command line wins).
#include "mcpread/server/config.hpp"

#include <functional>
#include <string>
#include <vector>

namespace mcpread::server {

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
