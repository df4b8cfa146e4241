#include "listener.hpp"

#include <boost/asio/post.hpp>
#include <boost/asio/strand.hpp>
#include <spdlog/spdlog.h>

#include <algorithm>

namespace mcpread::server::http {

namespace asio = boost::asio;
using asio::ip::tcp;

Listener::Listener(asio::io_context& io, RequestHandler& handler, ConnectionLimits limits)
    : io_(io), acceptor_(asio::make_strand(io)), handler_(handler), limits_(limits) {}

bool Listener::open(const tcp::endpoint& endpoint, std::string* error) {
  boost::system::error_code ec;
  const char* step = "open";
  acceptor_.open(endpoint.protocol(), ec);
  if (!ec) {
    step = "set SO_REUSEADDR on";
    acceptor_.set_option(asio::socket_base::reuse_address(true), ec);
  }
  if (!ec) {
    step = "bind";
    acceptor_.bind(endpoint, ec);
  }
  if (!ec) {
    step = "listen on";
    acceptor_.listen(asio::socket_base::max_listen_connections, ec);
  }
  if (ec) {
    *error = std::string("cannot ") + step + " " + endpoint.address().to_string() + ":" +
             std::to_string(endpoint.port()) + ": " + ec.message();
    return false;
  }
  return true;
}

tcp::endpoint Listener::local_endpoint() const {
  boost::system::error_code ec;
  return acceptor_.local_endpoint(ec);
}

void Listener::start() { accept(); }

void Listener::accept() {
  acceptor_.async_accept(asio::make_strand(io_), [self = shared_from_this()](boost::system::error_code ec,
                                                                            tcp::socket socket) {
    if (ec == asio::error::operation_aborted || !self->acceptor_.is_open()) return;
    if (ec) {
      // Out of descriptors and the like: the listener keeps going, the client retries.
      spdlog::warn("http: accept failed: {}", ec.message());
    } else {
      boost::system::error_code ignored;
      socket.set_option(tcp::no_delay(true), ignored);
      auto connection = std::make_shared<Connection>(std::move(socket), self->handler_, self->limits_);
      {
        std::lock_guard lock(self->mutex_);
        auto& all = self->connections_;
        all.erase(std::remove_if(all.begin(), all.end(), [](const auto& w) { return w.expired(); }), all.end());
        all.push_back(connection);
      }
      connection->start();
    }
    self->accept();
  });
}

void Listener::stop() {
  asio::post(acceptor_.get_executor(), [self = shared_from_this()] {
    boost::system::error_code ignored;
    self->acceptor_.close(ignored);
  });
  std::vector<std::weak_ptr<Connection>> all;
  {
    std::lock_guard lock(mutex_);
    all.swap(connections_);
    stopping_ = all;
  }
  for (auto& weak : all)
    if (auto c = weak.lock()) c->stop();
}

std::size_t Listener::open_connections() {
  std::lock_guard lock(mutex_);
  std::size_t n = 0;
  for (const auto* list : {&connections_, &stopping_})
    for (const auto& weak : *list) n += weak.expired() ? 0 : 1;
  return n;
}

}  // namespace mcpread::server::http
