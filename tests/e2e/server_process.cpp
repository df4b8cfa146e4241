// ServerProcess: the server under test as a child process, its stderr captured.
#include "http_client.hpp"

#include "mcp_client.hpp"

#include <stdexcept>
#include <thread>

namespace mcpread::test::http {

using clock_type = std::chrono::steady_clock;

namespace {

ChildProcess::Spec http_server(std::vector<std::string> args, std::vector<std::string> extra_env,
                               const std::filesystem::path& binary) {
  std::vector<std::string> argv{binary_path().string(), "--transport", "http", "--port", "0"};
  if (!binary.empty()) argv = {binary.string(), "--port", "0"};
  argv.insert(argv.end(), args.begin(), args.end());
  ChildProcess::Spec spec{std::move(argv), std::move(extra_env), {}};
  spec.pipes = false;
  return spec;
}

}  // namespace

ServerProcess::ServerProcess(std::vector<std::string> args, std::vector<std::string> extra_env,
                             const std::filesystem::path& binary)
    : child_(http_server(std::move(args), std::move(extra_env), binary)) {
  // The port is known once the listening line is out (bounded: 10 s).
  constexpr std::string_view marker = "listening on http://";
  const auto deadline = clock_type::now() + 10s;
  for (;;) {
    const std::string text = stderr_text();
    if (const auto at = text.find(marker); at != std::string::npos) {
      const auto path = text.find("/mcp", at);
      const auto colon = text.rfind(':', path);
      if (path != std::string::npos && colon != std::string::npos && colon > at + marker.size()) {
        port_ = static_cast<unsigned short>(std::stoul(text.substr(colon + 1, path - colon - 1)));
        return;
      }
    }
    if (const auto status = wait_exit(0ms); status || clock_type::now() > deadline) {
      const std::string why = status ? "exited with status " + std::to_string(*status)
                                     : std::string("did not log its address within 10 s");
      child_.kill();
      wait_exit(5s);
      throw std::runtime_error("mcp-read --transport http " + why + "; stderr:\n" + stderr_text());
    }
    std::this_thread::sleep_for(10ms);  // polling for the log line, bounded above
  }
}

// Killed at once: an HTTP server has no stdin whose end would ask it to stop.
ServerProcess::~ServerProcess() { child_.kill(); }

}  // namespace mcpread::test::http
