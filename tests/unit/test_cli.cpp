#include "cli.hpp"

#include <doctest/doctest.h>

using namespace mcpread::server;
using Action = CliOutcome::Action;

TEST_CASE("command line") {
  SUBCASE("roots and options, both option forms") {
    const auto r = parse_cli({"/a", "--log-level", "debug", "--default-limit=50", "/b", "--structured-content"});
    CHECK(r.action == Action::run);
    CHECK(r.config.roots == std::vector<std::string>{"/a", "/b"});
    CHECK(r.config.log_level == "debug");
    CHECK(r.config.limits.text.limit == 50);
    CHECK(r.config.structured_content);
  }
  SUBCASE("defaults") {
    const auto r = parse_cli({});
    CHECK(r.config.roots.empty());
    CHECK(r.config.max_message_bytes == 16u << 20);
    CHECK(r.config.limits.text.limit == 2000);
    CHECK(r.config.limits.text.max_line_chars == 2000);
    CHECK(r.config.limits.text.max_output_bytes == 100 * 1024);
  }
  SUBCASE("-- ends the options") {
    const auto r = parse_cli({"--", "--odd-dir-name"});
    CHECK(r.config.roots == std::vector<std::string>{"--odd-dir-name"});
  }
  SUBCASE("help and version") {
    CHECK(parse_cli({"--help"}).action == Action::print_and_exit);
    CHECK(parse_cli({"-V"}).text == std::string("mcp-read ") + MCPREAD_VERSION + "\n");
  }
  SUBCASE("errors name the problem") {
    CHECK(parse_cli({"--nope"}).text == "mcp-read: unknown option --nope\nTry 'mcp-read --help'.\n");
    CHECK(parse_cli({"--workers"}).text == "mcp-read: option --workers needs a value\nTry 'mcp-read --help'.\n");
    CHECK(parse_cli({"--workers", "x"}).text ==
          "mcp-read: option --workers needs a whole number, got 'x'\nTry 'mcp-read --help'.\n");
    CHECK(parse_cli({"--workers", "0"}).text ==
          "mcp-read: value 0 is out of range for --workers\nTry 'mcp-read --help'.\n");
    CHECK(parse_cli({"--log-level", "loud"}).action == Action::fail);
  }
}
