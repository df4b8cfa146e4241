#include "connection.hpp"

#include "sse.hpp"

#include <boost/asio/dispatch.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/bind_handler.hpp>
#include <boost/beast/http/empty_body.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/write.hpp>
#include <spdlog/spdlog.h>
#if !defined(_WIN32)
#include <sys/socket.h>
#endif

#include <array>
#include <atomic>
#include <iterator>
#include <mutex>
#include <sstream>

namespace mcpread::server::http {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace bhttp = boost::beast::http;

namespace {

// One chunk of a chunked body, framed in place: an event may be megabytes (an image's base64),
// and its serializer left room for the framing.
std::string chunk(std::string data) {
  char size[20];
  const int n = std::snprintf(size, sizeof size, "%zx\r\n", data.size());
  data.insert(0, size, static_cast<std::size_t>(n));
  data.append("\r\n");
  return data;
}

}  // namespace

// The ResponseSink of one request: forwards to the connection's strand, tagged with the
// exchange's number so that a late call never lands on a later request.
class Connection::Exchange : public ResponseSink {
 public:
  Exchange(std::weak_ptr<Connection> connection, std::uint64_t id, asio::any_io_executor strand)
      : connection_(std::move(connection)), id_(id), strand_(std::move(strand)) {}

  void respond(Response response) override {
    if (!take_turn()) return;
    finished_ = true;
    post([id = id_, r = std::move(response)](Connection& c) mutable { c.exchange_respond(id, std::move(r)); });
  }
  void open_stream(Headers headers) override {
    if (!take_turn()) return;
    post([id = id_, h = std::move(headers)](Connection& c) mutable { c.exchange_open_stream(id, std::move(h)); });
  }
  bool event(std::string text) override {
    if (closed_ || finished_) return false;
    post([id = id_, t = std::move(text)](Connection& c) mutable { c.exchange_event(id, std::move(t)); });
    return true;
  }
  void end_stream() override {
    if (closed_ || finished_.exchange(true)) return;
    post([id = id_](Connection& c) { c.exchange_end_stream(id); });
  }
  void on_close(std::function<void()> callback) override {
    std::unique_lock lock(mutex_);
    if (closed_) {
      lock.unlock();
      callback();
      return;
    }
    callbacks_.push_back(std::move(callback));
  }
  [[nodiscard]] bool closed() const override { return closed_; }

  // On the strand: the peer went away (or the connection was cut) before the exchange ended.
  void peer_gone() {
    std::vector<std::function<void()>> callbacks;
    {
      std::lock_guard lock(mutex_);
      if (closed_.exchange(true)) return;
      callbacks.swap(callbacks_);
    }
    for (auto& callback : callbacks) callback();
  }

 private:
  // respond() or open_stream(): only the first of them counts.
  bool take_turn() { return !closed_ && !started_.exchange(true); }
  template <class F>
  void post(F f) {
    asio::post(strand_, [weak = connection_, f = std::move(f)]() mutable {
      if (auto c = weak.lock()) f(*c);
    });
  }

  std::weak_ptr<Connection> connection_;
  std::uint64_t id_;
  asio::any_io_executor strand_;
  std::atomic<bool> started_{false};
  std::atomic<bool> finished_{false};
  std::atomic<bool> closed_{false};
  std::mutex mutex_;
  std::vector<std::function<void()>> callbacks_;
};

Connection::Connection(asio::ip::tcp::socket socket, RequestHandler& handler, ConnectionLimits limits)
    : stream_(std::move(socket)), handler_(handler), limits_(limits), keepalive_(stream_.get_executor()) {}

void Connection::start() {
  asio::dispatch(stream_.get_executor(), [self = shared_from_this()] { self->read_request(); });
}

void Connection::stop() {
  asio::post(stream_.get_executor(), [self = shared_from_this()] {
    self->stopping_ = true;
    if (self->streaming_) {
      self->exchange_end_stream(self->exchange_id_);
    } else if (!self->exchange_ && !self->writing_) {
      self->close();
    }
    // Otherwise the answer in progress is written, then the connection closes.
  });
}

void Connection::read_request() {
  if (closed_) return;
  if (stopping_) {
    close();
    return;
  }
  parser_.emplace();
  parser_->body_limit(limits_.max_body_bytes);
  parser_->header_limit(static_cast<std::uint32_t>(limits_.max_header_bytes));
  stream_.expires_after(limits_.read_timeout);
  bhttp::async_read(stream_, buffer_, *parser_,
                    beast::bind_front_handler(&Connection::on_read, shared_from_this()));
}

void Connection::on_read(beast::error_code ec, std::size_t) {
  if (closed_) return;
  if (ec == bhttp::error::body_limit) {
    refuse_and_close(413, "Payload Too Large: the body exceeds " + std::to_string(limits_.max_body_bytes) +
                              " bytes (--max-body-bytes)");
    return;
  }
  if (ec == bhttp::error::header_limit) {
    refuse_and_close(431, "Request Header Fields Too Large");
    return;
  }
  if (ec == bhttp::error::end_of_stream || ec == asio::error::eof || ec == asio::error::connection_reset) {
    close();
    return;
  }
  if (ec == beast::error::timeout) {
    spdlog::debug("http: closing a connection that sent no complete request in {} s",
                  limits_.read_timeout.count());
    close();
    return;
  }
  if (ec) {
    if (ec != asio::error::operation_aborted) {
      // A malformed request: say so, then close (the stream's framing is lost).
      refuse_and_close(400, "Bad Request: " + ec.message());
    }
    return;
  }
  stream_.expires_never();
  Request request = parser_->release();
  keep_alive_ = request.keep_alive() && !stopping_;
  head_ = request.method() == bhttp::verb::head;
  exchange_ = std::make_shared<Exchange>(weak_from_this(), ++exchange_id_, stream_.get_executor());
  watch_peer();
  handler_.handle(std::move(request), exchange_);
}

void Connection::refuse_and_close(unsigned status, std::string message) {
  auto response = std::make_shared<Response>(static_cast<bhttp::status>(status), 11);
  response->set(bhttp::field::content_type, "text/plain; charset=utf-8");
  response->set(bhttp::field::connection, "close");
  response->body() = std::move(message) + "\n";
  response->prepare_payload();
  keep_alive_ = false;
  exchange_.reset();
  enqueue(Outgoing{std::move(response), {}, true});
}

// While an answer is prepared the connection is not read; a readable socket then means the peer
// closed it (or sent a pipelined request, which waits for its turn).
void Connection::watch_peer() {
  if (watching_ || closed_) return;
  watching_ = true;
  stream_.socket().async_wait(asio::socket_base::wait_read,
                              [self = shared_from_this(), id = exchange_id_](beast::error_code ec) {
                                self->watching_ = false;
                                if (ec || self->closed_ || !self->exchange_) return;
                                if (id != self->exchange_id_) {  // a later exchange: watch it instead
                                  self->watch_peer();
                                  return;
                                }
#if defined(_WIN32)
                                // Readable with nothing to read: the peer closed (no MSG_DONTWAIT
                                // there; FIONREAD says the same).
                                beast::error_code avail_ec;
                                if (self->stream_.socket().available(avail_ec) == 0 || avail_ec) {
                                  self->peer_gone();
                                  return;
                                }
#else
                                char byte = 0;
                                const ssize_t n = ::recv(self->stream_.socket().native_handle(), &byte, 1,
                                                         MSG_PEEK | MSG_DONTWAIT);
                                if (n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK)) {
                                  self->peer_gone();
                                  return;
                                }
#endif
                                // A spurious wake-up, or a pipelined request: keep watching. The
                                // watch is also what keeps the connection alive meanwhile.
                                self->watch_peer();
                              });
}

void Connection::peer_gone() {
  spdlog::debug("http: peer closed the connection during an exchange");
  close();
}

void Connection::enqueue(Outgoing item) {
  if (closed_) return;
  queued_bytes_ += item.response ? item.response->body().size() : item.raw.size();
  queue_.push_back(std::move(item));
  if (streaming_ && queued_bytes_ > limits_.max_queued_bytes) {
    spdlog::warn("http: a client is not reading its stream ({} bytes queued); closing it", queued_bytes_);
    close();
    return;
  }
  if (!writing_) write_next();
}

void Connection::write_next() {
  if (queue_.empty() || closed_) {
    writing_ = false;
    return;
  }
  writing_ = true;
  stream_.expires_after(limits_.write_timeout);
  Outgoing& item = queue_.front();
  const bool ends = item.ends_exchange;
  if (item.response) {
    bhttp::async_write(stream_, *item.response,
                       [self = shared_from_this(), ends](beast::error_code ec, std::size_t) {
                         self->on_written(ec, ends);
                       });
  } else {
    asio::async_write(stream_, asio::buffer(item.raw),
                      [self = shared_from_this(), ends](beast::error_code ec, std::size_t) {
                        self->on_written(ec, ends);
                      });
  }
}

void Connection::on_written(beast::error_code ec, bool ends_exchange) {
  if (closed_) return;
  stream_.expires_never();
  if (ec) {
    spdlog::debug("http: write failed: {}", ec.message());
    close();
    return;
  }
  Outgoing& done = queue_.front();
  queued_bytes_ -= done.response ? done.response->body().size() : done.raw.size();
  queue_.pop_front();
  if (ends_exchange) {
    exchange_.reset();
    streaming_ = false;
    keepalive_.cancel();
    if (stopping_) {
      close();  // the server is exiting: the answer is out, nothing is waited for
      return;
    }
    if (!keep_alive_) {
      linger_then_close();
      return;
    }
    writing_ = false;
    if (!queue_.empty()) {
      write_next();
      return;
    }
    // The peer watch may still be pending; it ignores a finished exchange.
    read_request();
    return;
  }
  write_next();
}

void Connection::keepalive_tick() {
  keepalive_.expires_after(limits_.keepalive_every);
  keepalive_.async_wait([self = shared_from_this(), id = exchange_id_](beast::error_code ec) {
    if (ec || self->closed_ || !self->streaming_ || id != self->exchange_id_) return;
    if (self->queue_.empty()) self->enqueue(Outgoing{nullptr, chunk(sse_keepalive()), false});
    self->keepalive_tick();
  });
}

// Closing a socket with unread bytes makes the kernel send a reset, which can destroy the answer
// just written (a 413 to a client still sending its body). Stop sending, read what still comes
// for a moment, then close.
void Connection::linger_then_close() {
  if (closed_) return;
  beast::error_code ignored;
  stream_.socket().shutdown(asio::ip::tcp::socket::shutdown_send, ignored);
  stream_.expires_after(std::chrono::seconds(2));
  drain();
}

void Connection::drain() {
  auto scratch = std::make_shared<std::array<char, 16 * 1024>>();
  stream_.async_read_some(asio::buffer(*scratch), [self = shared_from_this(), scratch](beast::error_code ec,
                                                                                     std::size_t) {
    if (ec || self->closed_) {
      self->close();
      return;
    }
    self->drain();
  });
}

void Connection::close() {
  if (closed_) return;
  closed_ = true;
  keepalive_.cancel();
  beast::error_code ignored;
  stream_.socket().shutdown(asio::ip::tcp::socket::shutdown_both, ignored);
  stream_.close();
  // A write in flight still refers to the item at the front: it goes when its handler has run.
  if (writing_ && !queue_.empty())
    queue_.erase(std::next(queue_.begin()), queue_.end());
  else
    queue_.clear();
  queued_bytes_ = 0;
  if (auto exchange = std::move(exchange_)) exchange->peer_gone();
}

void Connection::exchange_respond(std::uint64_t id, Response response) {
  if (closed_ || id != exchange_id_ || !exchange_) return;
  // An endpoint that sets "Connection: close" (a draining server's refusal) ends the connection.
  keep_alive_ = keep_alive_ && response.keep_alive();
  response.keep_alive(keep_alive_);
  // Tells clients when an idle connection will be closed, so they do not send on one that is
  // being closed (a request lost to that race cannot be retried safely).
  if (keep_alive_) response.set("Keep-Alive", "timeout=" + std::to_string(limits_.read_timeout.count()));
  response.prepare_payload();
  if (head_) {  // RFC 9110 9.3.2: the GET's header fields, Content-Length included, and no content
    const auto length = response.body().size();
    response.body().clear();
    response.content_length(length);
  }
  enqueue(Outgoing{std::make_shared<Response>(std::move(response)), {}, true});
}

void Connection::exchange_open_stream(std::uint64_t id, Headers headers) {
  if (closed_ || id != exchange_id_ || !exchange_) return;
  bhttp::response<bhttp::empty_body> head{bhttp::status::ok, 11};
  head.set(bhttp::field::content_type, "text/event-stream");
  head.set(bhttp::field::cache_control, "no-cache");
  head.set("X-Accel-Buffering", "no");
  for (auto& [name, value] : headers) head.set(name, value);
  head.keep_alive(keep_alive_);
  head.chunked(true);
  std::ostringstream out;
  out << head.base();
  streaming_ = true;
  enqueue(Outgoing{nullptr, out.str(), false});
  keepalive_tick();
  if (stopping_) exchange_end_stream(id);
}

void Connection::exchange_event(std::uint64_t id, std::string text) {
  if (closed_ || id != exchange_id_ || !streaming_) return;
  enqueue(Outgoing{nullptr, chunk(std::move(text)), false});
}

void Connection::exchange_end_stream(std::uint64_t id) {
  if (closed_ || id != exchange_id_ || !streaming_) return;
  streaming_ = false;  // no more events; what is queued still goes out
  enqueue(Outgoing{nullptr, "0\r\n\r\n", true});
}

}  // namespace mcpread::server::http
