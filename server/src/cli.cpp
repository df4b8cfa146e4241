#include "cli.hpp"

#include <algorithm>
#include <charconv>
#include <optional>
#include <string_view>

namespace mcpread::server {
namespace {

std::optional<std::uint64_t> parse_count(std::string_view text) {
  std::uint64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc{} || end != text.data() + text.size() || text.empty()) return std::nullopt;
  return value;
}

bool valid_log_level(std::string_view level) {
  for (std::string_view l : {"trace", "debug", "info", "warn", "error", "critical", "off"})
    if (l == level) return true;
  return false;
}

}  // namespace

std::string usage() {
  return R"(Usage: mcp-read [OPTIONS] [ROOT...]

An MCP server whose `read` tool gives a model any file the way it needs it: numbered text
lines in any charset, with more file types to come. Speaks MCP over stdio. Reads are confined to
the ROOT directories (default: the current directory); a client's MCP roots narrow them.

Options:
  --log-level LEVEL          stderr log level: trace, debug, info, warn, error, critical, off
                             (default: info)
  --max-message-bytes N      largest JSON-RPC message accepted (default: 16777216)
  --workers N                threads serving tool calls (default: one per core, at least 2)
  --roots-wait-ms N          how long a read waits for the client's roots (default: 3000)
  --default-limit N          lines returned when `limit` is not given (default: 2000)
  --max-line-chars N         characters kept of a longer line (default: 2000)
  --max-output-bytes N       cap on the text of one answer (default: 102400)
  --count-lines-max-bytes N  count a file's lines only up to this size (default: 67108864)
  --structured-content       also send structuredContent and an outputSchema (some hosts then
                             drop image blocks)
  -h, --help                 show this help
  -V, --version              show the version
)";
}

CliOutcome parse_cli(const std::vector<std::string>& args) {
  CliOutcome out;
  Config& c = out.config;
  auto fail = [&out](std::string message) {
    out.action = CliOutcome::Action::fail;
    out.text = "mcp-read: " + std::move(message) + "\nTry 'mcp-read --help'.\n";
    return out;
  };
  bool options_done = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    std::string arg = args[i];
    if (options_done || arg.empty() || arg[0] != '-' || arg == "-") {
      c.roots.push_back(arg);
      continue;
    }
    if (arg == "--") {
      options_done = true;
      continue;
    }
    if (arg == "-h" || arg == "--help") {
      out.action = CliOutcome::Action::print_and_exit;
      out.text = usage();
      return out;
    }
    if (arg == "-V" || arg == "--version") {
      out.action = CliOutcome::Action::print_and_exit;
      out.text = std::string("mcp-read ") + MCPREAD_VERSION + "\n";
      return out;
    }
    if (arg == "--structured-content") {
      c.structured_content = true;
      continue;
    }
    // Options with a value: "--name value" or "--name=value".
    static constexpr std::string_view valued[] = {
        "--log-level",     "--max-message-bytes", "--workers",          "--roots-wait-ms",
        "--default-limit", "--max-line-chars",    "--max-output-bytes", "--count-lines-max-bytes"};
    const std::string name = arg.substr(0, arg.find('='));
    if (std::find(std::begin(valued), std::end(valued), name) == std::end(valued))
      return fail("unknown option " + name);
    std::string value;
    if (const auto eq = arg.find('='); eq != std::string::npos) {
      value = arg.substr(eq + 1);
      arg.resize(eq);
    } else if (i + 1 < args.size()) {
      value = args[++i];
    } else {
      return fail("option " + arg + " needs a value");
    }
    if (arg == "--log-level") {
      if (!valid_log_level(value)) return fail("unknown log level '" + value + "'");
      c.log_level = value;
      continue;
    }
    const auto n = parse_count(value);
    if (!n) return fail("option " + arg + " needs a whole number, got '" + value + "'");
    if (arg == "--max-message-bytes" && *n >= 1024) {
      c.max_message_bytes = *n;
    } else if (arg == "--workers" && *n >= 1 && *n <= 256) {
      c.workers = *n;
    } else if (arg == "--roots-wait-ms" && *n <= 60000) {
      c.roots_wait_ms = static_cast<unsigned>(*n);
    } else if (arg == "--default-limit" && *n >= 1) {
      c.limits.text.limit = *n;
    } else if (arg == "--max-line-chars" && *n >= 1) {
      c.limits.text.max_line_chars = *n;
    } else if (arg == "--max-output-bytes" && *n >= 1024) {
      c.limits.text.max_output_bytes = *n;
    } else if (arg == "--count-lines-max-bytes") {
      c.limits.text.count_lines_max_bytes = *n;
    } else {
      return fail("value " + value + " is out of range for " + arg);
    }
  }
  return out;
}

}  // namespace mcpread::server
