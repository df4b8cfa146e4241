// mcp-read: an MCP server whose `read` tool returns files the way a model needs them.
#include "mcpread/readers/environment.hpp"
#include "mcpread/server/cli.hpp"
#include "mcpread/server/http_server.hpp"
#include "mcpread/server/log_format.hpp"
#include "mcpread/server/stdio_server.hpp"

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>
#include <unistd.h>
#if defined(_WIN32)
#include "mcpread/common/windows_thread_exit.hpp"  // before any thread_local is touched
#endif

#ifdef __GLIBC__
#include <malloc.h>
#endif

#include <csignal>
#include <cstdlib>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <iostream>

int main(int argc, char** argv) {
#ifdef SIGPIPE
  std::signal(SIGPIPE, SIG_IGN);  // a closed stdout is an EPIPE error, not a silent death
#endif
  mcpread::readers::prepare_environment();  // before any thread starts
#ifdef __GLIBC__
  // glibc maps blocks of 128 KiB and more on their own, but after freeing one it raises that
  // threshold (up to 32 MiB), so the next images' buffers (file bytes, decoded pixels, base64,
  // the answer's JSON) came from the arenas and stayed resident there between reads: 60-90 MB
  // held by a process that was idle again. A fixed threshold keeps every large buffer in a
  // mapping of its own that goes back to the kernel when freed. (512 KiB made text reads a
  // little faster but left 3 MB more in the arenas after image reads; a text read's answer is
  // reserved whole instead, under the threshold: readers/src/text.cpp.)
  mallopt(M_MMAP_THRESHOLD, 128 * 1024);
  // Fixing that threshold also fixes the trim threshold, at 128 KiB, which a text read's freed
  // buffers crossed on every call: the arena's top went back to the kernel and was faulted in
  // again by the next read. Large answers trim explicitly (tool_host.cpp).
  mallopt(M_TRIM_THRESHOLD, 1024 * 1024);
#endif
  const std::vector<std::string> args(argv + 1, argv + argc);
  auto cli = mcpread::server::parse_cli(args, [](const char* name) { return std::getenv(name); });
  if (cli.action == mcpread::server::CliOutcome::Action::print_and_exit) {
    std::cout << cli.text;
    return 0;
  }
  if (cli.action == mcpread::server::CliOutcome::Action::fail) {
    std::cerr << cli.text;
    return 2;
  }
  try {
    // Logs go to stderr only: stdout belongs to the protocol.
    auto logger = spdlog::stderr_color_mt("mcp-read");
    spdlog::set_default_logger(logger);
    spdlog::set_level(spdlog::level::from_str(cli.config.log_level));
    if (cli.config.log_json) spdlog::set_formatter(mcpread::server::json_log_formatter());
    else spdlog::set_pattern("[%Y-%m-%d %H:%M:%S.%e] [%^%l%$] %v");

    auto& config = cli.config;
    const bool roots_default = config.roots.empty();
    if (roots_default) config.roots.push_back(std::filesystem::current_path().string());
    mcpread::readers::Roots roots;
    std::string error;
    if (!mcpread::readers::Roots::from_paths(config.roots, &roots, &error)) {
      std::cerr << "mcp-read: " << error << "\n";
      return 2;
    }
    if (config.transport == mcpread::server::Transport::http) {
      spdlog::info("mcp-read {} serving HTTP; roots: {}", MCPREAD_VERSION, roots.describe());
      mcpread::server::http::HttpServer server(std::move(config), std::move(roots), roots_default);
      return server.run();
    }
    spdlog::info("mcp-read {} serving stdio; roots: {}", MCPREAD_VERSION, roots.describe());
    mcpread::server::StdioServer server(std::move(config), std::move(roots), roots_default);
    return server.run();
  } catch (const std::exception& e) {
    std::cerr << "mcp-read: fatal: " << e.what() << "\n";
    return 1;
  }
}
