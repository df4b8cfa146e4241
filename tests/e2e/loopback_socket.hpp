#pragma once
// A TCP connection to 127.0.0.1:port for the HTTP tests, on POSIX sockets and on Winsock alike:
// blocking writes, and reads that wait at most a given time, so a server that stops answering
// fails a test instead of hanging it. os/loopback_socket_posix.cpp and _windows.cpp.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace mcpread::test::http {

class LoopbackSocket {
 public:
  explicit LoopbackSocket(unsigned short port);  // connects (TCP_NODELAY); throws when it cannot
  ~LoopbackSocket();
  LoopbackSocket(const LoopbackSocket&) = delete;
  LoopbackSocket& operator=(const LoopbackSocket&) = delete;

  // Writes all of `bytes`; false when the peer is gone (closed or reset).
  bool write_all(std::string_view bytes);
  enum class Read { data, closed, timeout, failed };
  // Reads what arrives within `timeout` (at most `size` bytes, counted in `got`). `closed`: the
  // peer ended the connection; `failed`: it was reset or another error came (see error()).
  Read read_some(void* data, std::size_t size, std::chrono::milliseconds timeout, std::size_t& got);
  // Whether the peer has closed a connection that is idle on our side (no waiting).
  bool peer_closed();
  [[nodiscard]] const std::string& error() const { return error_; }

 private:
  std::intptr_t handle_;  // a file descriptor, or a Winsock SOCKET
  std::string error_;
};

}  // namespace mcpread::test::http
