// LoopbackSocket on Winsock: WSAPoll bounds each read; the socket is non-blocking only for the
// look that asks whether the peer has gone.
#include "../loopback_socket.hpp"

#include <winsock2.h>
#include <ws2tcpip.h>

#include <algorithm>
#include <stdexcept>

namespace mcpread::test::http {

namespace {

std::string socket_error(int code) {
  char* text = nullptr;
  ::FormatMessageA(FORMAT_MESSAGE_ALLOCATE_BUFFER | FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS,
                   nullptr, static_cast<DWORD>(code), 0, reinterpret_cast<char*>(&text), 0, nullptr);
  std::string message = text ? text : "Winsock error " + std::to_string(code);
  if (text) ::LocalFree(text);
  while (!message.empty() && (message.back() == '\n' || message.back() == '\r')) message.pop_back();
  return message;
}

// Winsock is started once per process, before the first socket.
void start_winsock() {
  static const int started = [] {
    WSADATA data;
    return ::WSAStartup(MAKEWORD(2, 2), &data);
  }();
  if (started != 0) throw std::runtime_error("WSAStartup: " + socket_error(started));
}

SOCKET as_socket(std::intptr_t handle) { return static_cast<SOCKET>(handle); }

}  // namespace

LoopbackSocket::LoopbackSocket(unsigned short port) {
  start_winsock();
  const SOCKET s = ::WSASocketW(AF_INET, SOCK_STREAM, IPPROTO_TCP, nullptr, 0, WSA_FLAG_NO_HANDLE_INHERIT);
  if (s == INVALID_SOCKET) throw std::runtime_error("socket: " + socket_error(::WSAGetLastError()));
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(port);
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(s, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0) {
    const int e = ::WSAGetLastError();
    ::closesocket(s);
    throw std::runtime_error("connect to 127.0.0.1:" + std::to_string(port) + ": " + socket_error(e));
  }
  const BOOL one = TRUE;
  ::setsockopt(s, IPPROTO_TCP, TCP_NODELAY, reinterpret_cast<const char*>(&one), sizeof one);
  handle_ = static_cast<std::intptr_t>(s);
}

LoopbackSocket::~LoopbackSocket() { ::closesocket(as_socket(handle_)); }

bool LoopbackSocket::write_all(std::string_view data) {
  while (!data.empty()) {
    const int n = ::send(as_socket(handle_), data.data(), static_cast<int>(data.size()), 0);
    if (n <= 0) return false;
    data.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

LoopbackSocket::Read LoopbackSocket::read_some(void* data, std::size_t size, std::chrono::milliseconds timeout,
                                               std::size_t& got) {
  got = 0;
  WSAPOLLFD p{as_socket(handle_), POLLRDNORM, 0};
  const int r = ::WSAPoll(&p, 1, static_cast<INT>(std::max<long long>(0, timeout.count())));
  if (r == 0) return Read::timeout;
  if (r < 0) {
    error_ = socket_error(::WSAGetLastError());
    return Read::failed;
  }
  const int n = ::recv(as_socket(handle_), static_cast<char*>(data), static_cast<int>(size), 0);
  if (n > 0) {
    got = static_cast<std::size_t>(n);
    return Read::data;
  }
  if (n == 0) return Read::closed;
  error_ = socket_error(::WSAGetLastError());
  return Read::failed;
}

bool LoopbackSocket::peer_closed() {
  const SOCKET s = as_socket(handle_);
  u_long nonblocking = 1;
  ::ioctlsocket(s, FIONBIO, &nonblocking);
  char byte = 0;
  const int n = ::recv(s, &byte, 1, MSG_PEEK);
  const int e = n < 0 ? ::WSAGetLastError() : 0;
  nonblocking = 0;
  ::ioctlsocket(s, FIONBIO, &nonblocking);
  return n == 0 || (n < 0 && e != WSAEWOULDBLOCK);
}

}  // namespace mcpread::test::http
