#pragma once
// What StdioServer (mcpread/server/stdio_server.hpp) runs: stdin and stdout on one io_context,
// the one session, the worker pool, and the way out.
#include "idle_memory.hpp"
#include "line_framer.hpp"
#include "mcpread/server/config.hpp"
#include "mcpread/server/handlers.hpp"

#include "mcpread/protocol/session.hpp"

#include <boost/asio/io_context.hpp>
#if !defined(_WIN32)
#include <boost/asio/posix/stream_descriptor.hpp>
#endif
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/thread_pool.hpp>

#include <array>
#include <atomic>
#include <functional>
#include <future>
#include <memory>
#include <deque>
#include <optional>
#include <string>
#include <thread>

namespace mcpread::server::stdio {

class Service {
 public:
  using MakeHandlers =
      std::function<std::shared_ptr<HandlerFactory>(const Config& config, boost::asio::thread_pool& pool)>;
  Service(Config config, protocol::ServerInfo info, const MakeHandlers& make_handlers);
  ~Service();
  Service(const Service&) = delete;
  Service& operator=(const Service&) = delete;

  // Serves until EOF on stdin or a signal; returns the process exit code.
  int run();

 private:
#if !defined(_WIN32)
  void start_input();
  void read_more();
#endif
  void start_input_thread();
  void close_input();
  [[nodiscard]] bool writes_async() const;
  void on_data(std::string_view data);
  void on_line(std::string_view line);
  void on_input_end(const char* why);
  void begin_shutdown(const char* why);
  void send(std::string message);  // any thread
  void enqueue(std::string message);
  void write_next();
  // Drops the message just written (its buffer kept for the next large one).
  void done_with_front();
  void exchange_done();
  void maybe_finish();

  Config config_;
  std::string logger_;  // the name notifications/message carry: the server's
  boost::asio::io_context io_;
  boost::asio::signal_set signals_;
  boost::asio::steady_timer shutdown_timer_;
#if defined(_WIN32)
  // Windows' stdio handles cannot be polled: input is read on a thread and output written
  // synchronously, the paths Linux takes for a regular file.
  void stop_from_console(const char* why);
  std::promise<void> finished_;  // set when run() has shut down (console events wait for it)
  std::shared_future<void> finished_future_;
#else
  std::optional<boost::asio::posix::stream_descriptor> in_;
  std::optional<boost::asio::posix::stream_descriptor> out_;  // empty: synchronous writes
#endif
  std::thread input_thread_;  // used when stdin cannot be polled (a regular file; Windows)
  std::atomic<bool> input_done_observed_{false};  // the input thread has seen the end or an error
  int saved_in_flags_ = -1;
  int saved_out_flags_ = -1;
  std::array<char, 64 * 1024> buffer_{};
  LineFramer framer_;
  std::deque<std::string> queue_;
  bool writing_ = false;
  // Held while a large message is written, so that the idle release, which drops the buffer that
  // message gives back when written (common/spare_buffers.hpp), waits for it: a client reading
  // a large answer slowly would otherwise leave that buffer kept until the next call.
  std::optional<IdleMemory::Activity> large_write_;
  bool input_done_ = false;
  bool stopping_ = false;
  std::size_t open_exchanges_ = 0;
  int exit_code_ = 0;

  boost::asio::thread_pool pool_;
  std::shared_ptr<HandlerFactory> handlers_;  // after pool_, which they may post work to
  std::unique_ptr<protocol::ServerHandler> handler_;  // the session's
  protocol::Session session_;
};

}  // namespace mcpread::server::stdio
