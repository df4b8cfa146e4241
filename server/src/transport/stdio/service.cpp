#include "service.hpp"

#include "mcpread/common/platform.hpp"
#include "mcpread/common/spare_buffers.hpp"
#include "mcpread/server/server_info.hpp"

#include <boost/asio/post.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>
#include <fcntl.h>
#include <spdlog/spdlog.h>
#include <sys/stat.h>
#if defined(_WIN32)
#include "mcpread/common/windows_console.hpp"

#include <io.h>
#else
#include <unistd.h>
#endif

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace mcpread::server::stdio {
namespace {

// Writes all of `data` to a blocking descriptor; false on error.
bool write_all(int fd, std::string_view data) {
  while (!data.empty()) {
    const auto n = ::write(fd, data.data(), static_cast<unsigned>(std::min<std::size_t>(data.size(), 1u << 30)));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

// The reader thread calls tools holding no lock, and a quick read (a small cached text file) is
// answered there sooner than through the worker pool (config.hpp). Not on Windows: it cannot
// read from the cache alone (file_io.cpp), so every try would open and classify the file, give
// up at the read, and leave the pool to do it all again.
Config with_inline_reads(Config config) {
#if defined(_WIN32)
  config.inline_quick_reads = false;
#else
  config.inline_quick_reads = true;
#endif
  return config;
}

}  // namespace

Service::Service(Config config, protocol::ServerInfo info, const MakeHandlers& make_handlers)
    : config_(with_inline_reads(std::move(config))),
      logger_(info.name),
      signals_(io_, SIGINT, SIGTERM),
      shutdown_timer_(io_),
      framer_(config_.max_message_bytes),
      pool_(worker_count(config_.workers)),
      handlers_(make_handlers(config_, pool_)),
      handler_(handlers_->session_handler([this](protocol::LogLevel level, const std::string& text) {
        session_.log(level, logger_, text);
      }, protocol::Caller{})),
      session_(std::move(info), *handler_, [this](std::string m) { send(std::move(m)); }, config_.stateless_roots) {}

Service::~Service() {
  session_.cancel_all();
  pool_.join();
  if (input_thread_.joinable()) input_thread_.join();
}

#if defined(_WIN32)
namespace {
std::atomic<Service*> console_target{nullptr};
}  // namespace

void Service::stop_from_console(const char* why) {
  boost::asio::post(io_, [this, why] { begin_shutdown(why); });
  // Windows ends the process when the handler returns after a closed console, a log-off or a
  // shutdown: wait (within the five seconds it gives) for the shutdown to finish.
  (void)finished_future_.wait_for(std::chrono::milliseconds(4500));
}

int Service::run() {
  signals_.async_wait([this](const boost::system::error_code& ec, int signal) {
    if (!ec) begin_shutdown(signal == SIGINT ? "Ctrl-C" : "SIGTERM");
  });
  if (!platform::windows::binary_stdio()) spdlog::warn("cannot put stdin and stdout in binary mode");
  finished_future_ = finished_.get_future().share();
  console_target.store(this);
  platform::windows::on_console_stop([](const char* why) {
    if (Service* s = console_target.load()) s->stop_from_console(why);
  });
  start_input_thread();
  io_.run();

  session_.cancel_all();
  pool_.join();
  if (input_thread_.joinable()) {
    // Stopped before the client closed stdin: the thread is still in ReadFile.
    if (!input_done_observed_.load()) ::CancelSynchronousIo(::pthread_gethandle(input_thread_.native_handle()));
    input_thread_.join();
  }
  console_target.store(nullptr);
  finished_.set_value();
  return exit_code_;
}

void Service::close_input() {}

bool Service::writes_async() const { return false; }
#else
int Service::run() {
  saved_in_flags_ = ::fcntl(STDIN_FILENO, F_GETFL);
  saved_out_flags_ = ::fcntl(STDOUT_FILENO, F_GETFL);
  signals_.async_wait([this](const boost::system::error_code& ec, int signal) {
    if (!ec) begin_shutdown(signal == SIGINT ? "SIGINT" : "SIGTERM");
  });

  // A read's answer is often larger than a pipe's default 64 KiB: with a 1 MiB pipe it goes out
  // in one write instead of several, each waiting for the client to drain the last.
  for (int fd : {STDIN_FILENO, STDOUT_FILENO}) {
    struct stat st {};
    if (::fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode)) platform::enlarge_pipe(fd, 1 << 20);
  }

  boost::system::error_code ec;
  out_.emplace(io_);
  out_->assign(::dup(STDOUT_FILENO), ec);
  if (ec) {
    // A regular file or /dev/null cannot be polled; writes to it do not block for long.
    spdlog::debug("stdout is not pollable ({}); writing synchronously", ec.message());
    out_.reset();
  }
  start_input();
  io_.run();

  session_.cancel_all();
  pool_.join();
  if (input_thread_.joinable()) input_thread_.join();
  in_.reset();
  out_.reset();
  // Asio made the descriptions non-blocking; they may be shared with the parent (a terminal).
  if (saved_in_flags_ >= 0) ::fcntl(STDIN_FILENO, F_SETFL, saved_in_flags_);
  if (saved_out_flags_ >= 0) ::fcntl(STDOUT_FILENO, F_SETFL, saved_out_flags_);
  return exit_code_;
}

void Service::start_input() {
  boost::system::error_code ec;
  in_.emplace(io_);
  in_->assign(::dup(STDIN_FILENO), ec);
  if (!ec) {
    read_more();
    return;
  }
  // stdin is a regular file (or /dev/null): epoll refuses it, but reading it never blocks.
  spdlog::debug("stdin is not pollable ({}); reading it on a thread", ec.message());
  in_.reset();
  start_input_thread();
}

void Service::close_input() {
  if (in_) in_->close();
}

bool Service::writes_async() const { return out_.has_value(); }

void Service::read_more() {
  in_->async_read_some(boost::asio::buffer(buffer_),
                       [this](const boost::system::error_code& ec, std::size_t n) {
                         if (input_done_) return;
                         if (n > 0) on_data(std::string_view(buffer_.data(), n));
                         if (input_done_) return;
                         if (ec) {
                           on_input_end(ec == boost::asio::error::eof ? "end of input"
                                                                      : ec.message().c_str());
                           return;
                         }
                         read_more();
                       });
}
#endif

void Service::start_input_thread() {
  input_thread_ = std::thread([this] {
    std::array<char, 64 * 1024> chunk{};
    for (;;) {
      const auto n = ::read(STDIN_FILENO, chunk.data(), static_cast<unsigned>(chunk.size()));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        input_done_observed_.store(true);
        const std::string why = n == 0 ? "end of input" : std::strerror(errno);
        boost::asio::post(io_, [this, why] { on_input_end(why.c_str()); });
        return;
      }
      boost::asio::post(io_, [this, data = std::string(chunk.data(), static_cast<std::size_t>(n))] {
        if (!input_done_) on_data(data);
      });
    }
  });
}

void Service::on_data(std::string_view data) {
  framer_.feed(
      data, [this](std::string_view line) { on_line(line); },
      [this](std::size_t bytes) {
        spdlog::warn("discarding a message of at least {} bytes (limit {})", bytes,
                     config_.max_message_bytes);
        enqueue(session_.unaddressed_error(
            protocol::error_code::invalid_request,
            "Invalid Request: a message of at least " + std::to_string(bytes) +
                " bytes exceeds the limit of " + std::to_string(config_.max_message_bytes) +
                " bytes (--max-message-bytes)"));
      });
}

void Service::on_line(std::string_view line) {
  if (stopping_) return;
  auto reply = [this](std::string message, bool final) {
    boost::asio::post(io_, [this, message = std::move(message), final]() mutable {
      if (!message.empty()) enqueue(std::move(message));
      if (final) exchange_done();
    });
  };
  if (session_.receive(line, reply)) ++open_exchanges_;
}

void Service::on_input_end(const char* why) {
  if (input_done_) return;
  spdlog::debug("stdin closed ({}); finishing {} open request(s)", why, open_exchanges_);
  framer_.finish([this](std::string_view line) { on_line(line); });
  input_done_ = true;
  close_input();
  // A subscriptions/listen stream stays open until the server ends it; the client has gone.
  session_.close_subscriptions();
  maybe_finish();
}

void Service::begin_shutdown(const char* why) {
  spdlog::info("{} received; shutting down", why);
  stopping_ = true;
  input_done_ = true;
  close_input();
  session_.cancel_all();
  // Cancelled reads stop at their next check; do not wait forever for one that does not.
  shutdown_timer_.expires_after(std::chrono::seconds(5));
  shutdown_timer_.async_wait([this](const boost::system::error_code& ec) {
    if (!ec) io_.stop();
  });
  maybe_finish();
}

void Service::send(std::string message) {
  boost::asio::post(io_, [this, message = std::move(message)]() mutable { enqueue(std::move(message)); });
}

void Service::enqueue(std::string message) {
  message.push_back('\n');
  queue_.push_back(std::move(message));
  if (!writing_) write_next();
}

void Service::write_next() {
  if (queue_.empty()) {
    writing_ = false;
    maybe_finish();
    return;
  }
  writing_ = true;
  if (queue_.front().size() >= common::spare::min_bytes && !large_write_) large_write_.emplace(IdleMemory::instance());
  if (!writes_async()) {
    while (!queue_.empty()) {
      if (!write_all(STDOUT_FILENO, queue_.front())) {
        spdlog::error("cannot write to stdout: {}", std::strerror(errno));
        exit_code_ = 1;
        io_.stop();
        return;
      }
      done_with_front();
    }
    writing_ = false;
    maybe_finish();
    return;
  }
#if !defined(_WIN32)
  boost::asio::async_write(*out_, boost::asio::buffer(queue_.front()),
                           [this](const boost::system::error_code& ec, std::size_t) {
                             if (ec) {
                               // The client went away: nothing more can be delivered.
                               spdlog::info("stdout closed ({}); exiting", ec.message());
                               session_.cancel_all();
                               io_.stop();
                               return;
                             }
                             done_with_front();
                             write_next();
                           });
#endif
}

void Service::done_with_front() {
  // A large message's buffer serves the next one (common/spare_buffers.hpp).
  common::spare::messages().give_back(std::move(queue_.front()));
  queue_.pop_front();
  if (queue_.empty()) large_write_.reset();
}

void Service::exchange_done() {
  if (open_exchanges_ > 0) --open_exchanges_;
  maybe_finish();
}

void Service::maybe_finish() {
  if (input_done_ && open_exchanges_ == 0 && queue_.empty() && !writing_) io_.stop();
}

}  // namespace mcpread::server::stdio
