#pragma once
// Accepts TCP connections and hands each to a Connection of its own strand. Keeps weak handles
// on the connections so that a shutdown can reach them.
#include "connection.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>

#include <memory>
#include <mutex>
#include <vector>

namespace mcpread::server::http {

class Listener : public std::enable_shared_from_this<Listener> {
 public:
  Listener(boost::asio::io_context& io, RequestHandler& handler, ConnectionLimits limits);
  // Binds and listens; false with `error` set when the address cannot be used.
  bool open(const boost::asio::ip::tcp::endpoint& endpoint, std::string* error);
  [[nodiscard]] boost::asio::ip::tcp::endpoint local_endpoint() const;
  void start();
  // Stops accepting and asks every connection to stop. Any thread.
  void stop();
  [[nodiscard]] std::size_t open_connections();

 private:
  void accept();

  boost::asio::io_context& io_;
  boost::asio::ip::tcp::acceptor acceptor_;
  RequestHandler& handler_;
  ConnectionLimits limits_;
  std::mutex mutex_;
  std::vector<std::weak_ptr<Connection>> connections_;
  std::vector<std::weak_ptr<Connection>> stopping_;  // asked to stop, maybe not closed yet
};

}  // namespace mcpread::server::http
