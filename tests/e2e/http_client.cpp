#include "http_client.hpp"

#include "mcp_client.hpp"
#include "schema_validator.hpp"

#include <boost/asio/buffer.hpp>
#include <boost/asio/error.hpp>
#include <boost/beast/core/error.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/http/write.hpp>
#include <doctest/doctest.h>

#include <algorithm>
#include <cctype>
#include <sstream>
#include <thread>


namespace mcpread::test::http {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace bhttp = boost::beast::http;
using nlohmann::json;
using clock_type = std::chrono::steady_clock;

namespace {

std::chrono::milliseconds left_until(clock_type::time_point deadline) {
  return std::max(std::chrono::milliseconds(0),
                  std::chrono::duration_cast<std::chrono::milliseconds>(deadline - clock_type::now()));
}

// A socket as Beast's SyncReadStream: each read waits at most `timeout`, and its running out is
// reported as Beast's timeout.
class SocketStream {
 public:
  SocketStream(LoopbackSocket& socket, std::chrono::milliseconds timeout) : socket_(socket), timeout_(timeout) {}

  template <class MutableBufferSequence>
  std::size_t read_some(const MutableBufferSequence& buffers, boost::system::error_code& ec) {
    ec = {};
    for (auto it = net::buffer_sequence_begin(buffers); it != net::buffer_sequence_end(buffers); ++it) {
      net::mutable_buffer b = *it;
      if (b.size() == 0) continue;
      std::size_t got = 0;
      switch (socket_.read_some(b.data(), b.size(), timeout_, got)) {
        case LoopbackSocket::Read::data: return got;
        case LoopbackSocket::Read::closed: ec = net::error::eof; return 0;
        case LoopbackSocket::Read::timeout: ec = beast::error::timeout; return 0;
        case LoopbackSocket::Read::failed: ec = net::error::connection_reset; return 0;
      }
    }
    return 0;
  }
  template <class MutableBufferSequence>
  std::size_t read_some(const MutableBufferSequence& buffers) {
    boost::system::error_code ec;
    const std::size_t n = read_some(buffers, ec);
    if (ec) throw boost::system::system_error(ec);
    return n;
  }

 private:
  LoopbackSocket& socket_;
  std::chrono::milliseconds timeout_;
};

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}


// Splits complete events ("...\n\n") off the front of `text`.
std::vector<SseEvent> take_events(std::string& text) {
  std::vector<SseEvent> events;
  for (;;) {
    const auto end = text.find("\n\n");
    if (end == std::string::npos) return events;
    const std::string block = text.substr(0, end);
    text.erase(0, end + 2);
    SseEvent event;
    bool has_data = false;
    std::istringstream lines(block);
    for (std::string line; std::getline(lines, line);) {
      if (line.empty() || line[0] == ':') continue;  // a comment (keep-alive)
      const auto colon = line.find(':');
      const std::string field = line.substr(0, colon);
      std::string value = colon == std::string::npos ? std::string() : line.substr(colon + 1);
      if (!value.empty() && value[0] == ' ') value.erase(0, 1);
      if (field == "event") {
        event.name = value;
      } else if (field == "data") {
        event.data += (has_data ? "\n" : "") + value;
        has_data = true;
      }
    }
    if (!has_data && event.name.empty()) continue;
    if (event.name.empty()) event.name = "message";
    events.push_back(std::move(event));
  }
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Replies

bool NoCase::operator()(const std::string& a, const std::string& b) const {
  return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end(), [](char x, char y) {
    return std::tolower(static_cast<unsigned char>(x)) < std::tolower(static_cast<unsigned char>(y));
  });
}

std::optional<std::string> Reply::header(const std::string& name) const {
  const auto it = headers.find(name);
  if (it == headers.end()) return std::nullopt;
  return it->second;
}

bool Reply::is_event_stream() const {
  const auto type = header("Content-Type");
  return type && type->rfind("text/event-stream", 0) == 0;
}

json Reply::json() const {
  nlohmann::json value = nlohmann::json::parse(body, nullptr, false);
  if (value.is_discarded()) FAIL_CHECK("the body is not JSON (status " << status << "): " << body.substr(0, 500));
  return value;
}

const char* to_string(StreamState state) {
  switch (state) {
    case StreamState::open: return "open";
    case StreamState::ended: return "ended";
    case StreamState::lost: return "lost";
    case StreamState::timed_out: return "timed out";
  }
  return "?";
}

bool eventually(const std::function<bool()>& condition, std::chrono::milliseconds timeout) {
  const auto deadline = clock_type::now() + timeout;
  for (;;) {
    if (condition()) return true;
    if (clock_type::now() > deadline) return false;
    std::this_thread::sleep_for(20ms);
  }
}

// ---------------------------------------------------------------------------------------------
// Client

Client::Client(unsigned short port, std::chrono::milliseconds timeout) : port_(port), timeout_(timeout) {}

Client::~Client() { close(); }

void Client::close() {
  socket_.reset();
  parser_.reset();
  buffer_.clear();
  pending_.clear();
  if (state_ == StreamState::open) state_ = StreamState::lost;
}

void Client::connect() {
  close();
  socket_.emplace(port_);
  keep_alive_ = true;
}

void Client::write_request(const std::string& method, const std::string& target, const Headers& headers,
                           const std::string& body) {
  // A fresh connection unless the last one can carry another request.
  if (!socket_ || !keep_alive_ || state_ == StreamState::open || state_ == StreamState::timed_out ||
      buffer_.size() > 0 || socket_->peer_closed())
    connect();
  bhttp::request<bhttp::string_body> request;
  request.method_string(method);
  request.target(target);
  request.version(11);
  bool host = false;
  for (const auto& [name, value] : headers) {
    request.insert(name, value);
    host = host || iequals(name, "Host");
  }
  if (!host) request.set(bhttp::field::host, "127.0.0.1:" + std::to_string(port_));
  if (!body.empty() || method == "POST") {
    request.body() = body;
    request.prepare_payload();
  }
  std::ostringstream out;
  out << request;
  // A server that refuses early may close before it has read everything: its answer is still read.
  socket_->write_all(out.str());
}

Reply Client::head_of() const {
  Reply reply;
  const auto& message = parser_->get();
  reply.status = message.result_int();
  for (const auto& field : message)
    reply.headers.emplace(std::string(field.name_string()), std::string(field.value()));
  return reply;
}

Reply Client::open(const std::string& method, const std::string& target, const Headers& headers,
                   const std::string& body) {
  write_request(method, target, headers, body);
  parser_.emplace();
  parser_->body_limit(boost::none);
  parser_->eager(true);
  parser_->skip(method == "HEAD");  // the answer to a HEAD has Content-Length but no content
  pending_.clear();
  SocketStream stream(*socket_, timeout_);
  boost::system::error_code ec;
  bhttp::read_header(stream, buffer_, *parser_, ec);
  if (ec) {
    state_ = ec == beast::error::timeout ? StreamState::timed_out : StreamState::lost;
    keep_alive_ = false;
    FAIL("no answer to " << method << " " << target << ": " << ec.message());
  }
  Reply reply = head_of();
  keep_alive_ = parser_->get().keep_alive();
  if (reply.is_event_stream() && !parser_->is_done()) {
    state_ = StreamState::open;
    return reply;
  }
  if (!parser_->is_done()) bhttp::read(stream, buffer_, *parser_, ec);
  if (ec) FAIL_CHECK("reading the body of " << method << " " << target << ": " << ec.message());
  reply.body = std::move(parser_->get().body());
  state_ = StreamState::ended;
  return reply;
}

bool Client::read_more(std::chrono::milliseconds timeout) {
  if (!parser_ || !socket_) {
    state_ = StreamState::lost;
    return false;
  }
  SocketStream stream(*socket_, timeout);
  boost::system::error_code ec;
  bhttp::read_some(stream, buffer_, *parser_, ec);
  auto& body = parser_->get().body();
  pending_ += body;
  body.clear();
  if (parser_->is_done()) {
    state_ = StreamState::ended;
    return true;
  }
  if (ec == beast::error::timeout) {
    state_ = StreamState::timed_out;
    return false;
  }
  if (ec) {
    state_ = StreamState::lost;
    keep_alive_ = false;
    return false;
  }
  state_ = StreamState::open;
  return true;
}

std::optional<SseEvent> Client::next_event(std::chrono::milliseconds timeout) {
  const auto deadline = clock_type::now() + timeout;
  for (;;) {
    // One event at a time: the rest stays in pending_.
    if (const auto end = pending_.find("\n\n"); end != std::string::npos) {
      std::string block = pending_.substr(0, end + 2);
      pending_.erase(0, end + 2);
      auto events = take_events(block);
      if (!events.empty()) return std::move(events.front());
      continue;
    }
    if (state_ == StreamState::ended || state_ == StreamState::lost) return std::nullopt;
    const auto left = left_until(deadline);
    if (left.count() == 0) {
      state_ = StreamState::timed_out;
      return std::nullopt;
    }
    if (!read_more(left)) return std::nullopt;
  }
}

Reply Client::send(const std::string& method, const std::string& target, const Headers& headers,
                   const std::string& body) {
  Reply reply = open(method, target, headers, body);
  if (state_ != StreamState::open) return reply;
  const auto deadline = clock_type::now() + timeout_;
  while (state_ == StreamState::open) {
    const std::size_t before = pending_.size();
    read_more(left_until(deadline));
    reply.body.append(pending_, before, std::string::npos);
  }
  reply.end = state_;
  reply.events = take_events(pending_);
  return reply;
}

// ---------------------------------------------------------------------------------------------
// RawSocket

RawSocket::RawSocket(unsigned short port) : socket_(port) {}

bool RawSocket::write(std::string_view bytes) { return socket_.write_all(bytes); }

bool RawSocket::closed_within(std::chrono::milliseconds timeout) {
  const auto deadline = clock_type::now() + timeout;
  for (;;) {
    char chunk[4096];
    std::size_t got = 0;
    switch (socket_.read_some(chunk, sizeof chunk, left_until(deadline), got)) {
      case LoopbackSocket::Read::data: received_.append(chunk, got); continue;
      case LoopbackSocket::Read::timeout: return false;
      case LoopbackSocket::Read::closed:
      case LoopbackSocket::Read::failed: return true;  // closed or reset
    }
  }
}

std::string discover_request(long long id) {
  return nlohmann::json{{"jsonrpc", "2.0"},
                        {"id", id},
                        {"method", "server/discover"},
                        {"params",
                         {{"_meta",
                           {{"io.modelcontextprotocol/protocolVersion", stateless_version},
                            {"io.modelcontextprotocol/clientCapabilities", nlohmann::json::object()}}}}}}
      .dump();
}

}  // namespace mcpread::test::http
