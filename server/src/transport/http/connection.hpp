#pragma once
// One HTTP/1.1 connection, in the manner of Beast's advanced server: a strand of its own, a
// deadline before every read and write, a body limit, keep-alive, and a bounded queue of what it
// writes. The request handler knows nothing of it: it answers through a ResponseSink.
#include "response_sink.hpp"

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/parser.hpp>

#include <chrono>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>

namespace mcpread::server::http {

class RequestHandler {
 public:
  virtual ~RequestHandler() = default;
  virtual void handle(Request request, std::shared_ptr<ResponseSink> sink) = 0;
};

struct ConnectionLimits {
  std::size_t max_body_bytes = 16u << 20;
  std::size_t max_header_bytes = 16u << 10;
  std::chrono::seconds read_timeout{60};   // to receive a whole request (slow senders are cut)
  std::chrono::seconds write_timeout{60};  // to take one write (clients that stop reading are cut)
  std::chrono::seconds keepalive_every{15};
  std::size_t max_queued_bytes = 64u << 20;  // of one stream's unsent events
};

class Connection : public std::enable_shared_from_this<Connection> {
 public:
  Connection(boost::asio::ip::tcp::socket socket, RequestHandler& handler, ConnectionLimits limits);
  void start();
  // The server is stopping: close now when idle, end a stream, or close once the answer in
  // progress is written. Any thread.
  void stop();

 private:
  class Exchange;
  struct Outgoing {
    std::shared_ptr<Response> response;  // a whole response, or
    std::string raw;                     // bytes of a stream (head, chunks)
    bool ends_exchange = false;
  };

  void read_request();
  void on_read(boost::beast::error_code ec, std::size_t bytes);
  void refuse_and_close(unsigned status, std::string message);
  void watch_peer();
  void peer_gone();
  void enqueue(Outgoing item);
  void write_next();
  void on_written(boost::beast::error_code ec, bool ends_exchange);
  void keepalive_tick();
  void linger_then_close();
  void drain();
  void close();

  // Called on the strand by Exchange.
  void exchange_respond(std::uint64_t id, Response response);
  void exchange_open_stream(std::uint64_t id, Headers headers);
  void exchange_event(std::uint64_t id, std::string text);
  void exchange_end_stream(std::uint64_t id);

  boost::beast::tcp_stream stream_;
  boost::beast::flat_buffer buffer_;
  std::optional<boost::beast::http::request_parser<boost::beast::http::string_body>> parser_;
  RequestHandler& handler_;
  ConnectionLimits limits_;
  boost::asio::steady_timer keepalive_;

  std::shared_ptr<Exchange> exchange_;  // the request being answered
  std::uint64_t exchange_id_ = 0;
  bool keep_alive_ = true;
  bool head_ = false;  // the request being answered is a HEAD: its answer has no content
  bool streaming_ = false;
  bool watching_ = false;
  bool stopping_ = false;
  bool closed_ = false;
  std::deque<Outgoing> queue_;
  std::size_t queued_bytes_ = 0;
  bool writing_ = false;
};

}  // namespace mcpread::server::http
