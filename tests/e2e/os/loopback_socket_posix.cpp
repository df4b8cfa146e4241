// LoopbackSocket on POSIX sockets: poll() bounds each read.
#include "../loopback_socket.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace mcpread::test::http {

LoopbackSocket::LoopbackSocket(unsigned short port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) throw std::runtime_error(std::string("socket: ") + std::strerror(errno));
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(port);
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0) {
    const int e = errno;
    ::close(fd);
    throw std::runtime_error("connect to 127.0.0.1:" + std::to_string(port) + ": " + std::strerror(e));
  }
  const int one = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  handle_ = fd;
}

LoopbackSocket::~LoopbackSocket() { ::close(static_cast<int>(handle_)); }

bool LoopbackSocket::write_all(std::string_view data) {
  while (!data.empty()) {
    const ssize_t n = ::send(static_cast<int>(handle_), data.data(), data.size(), MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

LoopbackSocket::Read LoopbackSocket::read_some(void* data, std::size_t size, std::chrono::milliseconds timeout,
                                               std::size_t& got) {
  got = 0;
  const int fd = static_cast<int>(handle_);
  for (;;) {
    pollfd p{fd, POLLIN, 0};
    const int r = ::poll(&p, 1, static_cast<int>(std::max<long long>(0, timeout.count())));
    if (r < 0 && errno == EINTR) continue;
    if (r == 0) return Read::timeout;
    const ssize_t n = ::recv(fd, data, size, MSG_DONTWAIT);
    if (n > 0) {
      got = static_cast<std::size_t>(n);
      return Read::data;
    }
    if (n == 0) return Read::closed;
    if (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK) continue;
    error_ = std::strerror(errno);
    return Read::failed;
  }
}

bool LoopbackSocket::peer_closed() {
  char byte = 0;
  const ssize_t n = ::recv(static_cast<int>(handle_), &byte, 1, MSG_PEEK | MSG_DONTWAIT);
  return n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK);
}

}  // namespace mcpread::test::http
