#pragma once
// Where the answer to one HTTP request goes. Endpoints call it from any thread (tool calls finish
// on workers); the connection behind it serializes the writes on its strand. An exchange ends
// with respond(), or with open_stream() … end_stream(); calls after that, or after the peer has
// gone, are ignored.
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>

#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mcpread::server::http {

using Request = boost::beast::http::request<boost::beast::http::string_body>;
using Response = boost::beast::http::response<boost::beast::http::string_body>;
using Headers = std::vector<std::pair<std::string, std::string>>;

class ResponseSink {
 public:
  virtual ~ResponseSink() = default;
  virtual void respond(Response response) = 0;
  // Starts a 200 text/event-stream response (chunked) with these extra headers.
  virtual void open_stream(Headers headers) = 0;
  // One Server-Sent Event, already formatted (see sse.hpp). Returns false when the stream is
  // gone or its queue is over its bound (the connection is then closed: a client that does not
  // read must not make the server hold its messages without end).
  virtual bool event(std::string text) = 0;
  virtual void end_stream() = 0;
  // Runs `callback` once if the peer goes away before the exchange ends (at once if it already
  // has). The cancellation signal of stateless requests, the end of a session's stream.
  virtual void on_close(std::function<void()> callback) = 0;
  [[nodiscard]] virtual bool closed() const = 0;
  // The JSON-RPC method the request's body holds, once an endpoint has parsed it ("batch" for a
  // batch), for the sinks that count exchanges; called before the exchange is answered.
  virtual void name_method(std::string_view method) { (void)method; }
};

}  // namespace mcpread::server::http
