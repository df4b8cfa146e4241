#pragma once
// MCP over stdio: newline-delimited JSON-RPC on stdin/stdout, driven by one Asio io_context.
// stdout carries only whole MCP messages, written one at a time from a queue; tool calls run on a
// worker pool; EOF lets in-flight calls finish and exits, SIGINT/SIGTERM cancel them and exit.
#include "config.hpp"
#include "line_framer.hpp"
#include "roots_state.hpp"
#include "tool_host.hpp"

#include "mcpread/protocol/session.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/thread_pool.hpp>

#include <array>
#include <deque>
#include <optional>
#include <string>
#include <thread>

namespace mcpread::server {

class StdioServer {
 public:
  StdioServer(Config config, readers::Roots roots, bool roots_default);
  ~StdioServer();
  StdioServer(const StdioServer&) = delete;
  StdioServer& operator=(const StdioServer&) = delete;

  // Serves until EOF on stdin or a signal; returns the process exit code.
  int run();

 private:
  void start_input();
  void read_more();
  void on_data(std::string_view data);
  void on_line(std::string_view line);
  void on_input_end(const char* why);
  void begin_shutdown(const char* why);
  void send(std::string message);  // any thread
  void enqueue(std::string message);
  void write_next();
  void exchange_done();
  void maybe_finish();

  Config config_;
  boost::asio::io_context io_;
  boost::asio::signal_set signals_;
  boost::asio::steady_timer shutdown_timer_;
  std::optional<boost::asio::posix::stream_descriptor> in_;
  std::optional<boost::asio::posix::stream_descriptor> out_;  // empty: synchronous writes
  std::thread input_thread_;  // used when stdin cannot be polled (a regular file)
  int saved_in_flags_ = -1;
  int saved_out_flags_ = -1;
  std::array<char, 64 * 1024> buffer_{};
  LineFramer framer_;
  std::deque<std::string> queue_;
  bool writing_ = false;
  bool input_done_ = false;
  bool stopping_ = false;
  std::size_t open_exchanges_ = 0;
  int exit_code_ = 0;

  RootsState roots_;
  boost::asio::thread_pool pool_;
  ToolHost host_;
  protocol::Session session_;
};

}  // namespace mcpread::server
