#pragma once
// End-to-end tests of the HTTP transport: the server as a process listening on a free port, a
// small synchronous HTTP/1.1 client (Boost.Beast's parser over a socket with a receive timeout,
// so a server that stops answering fails a test instead of hanging it), a reader of Server-Sent
// Events, and an MCP client over Streamable HTTP that validates every JSON-RPC message it
// receives against the official schema of the version in force.
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/string_body.hpp>
#include <nlohmann/json.hpp>

#include "child_process.hpp"
#include "loopback_socket.hpp"

#include <chrono>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace mcpread::test::http {

using namespace std::chrono_literals;
using Headers = std::vector<std::pair<std::string, std::string>>;

// mcp-read started with `--transport http --port 0` and `args`; the port is read from its
// "listening on http://ADDRESS:PORT/mcp" log line. The process is killed when this dies.
// With `binary` (an HTTP-only server such as the conformance fixture): `binary --port 0 args`.
class ServerProcess {
 public:
  explicit ServerProcess(std::vector<std::string> args, std::vector<std::string> extra_env = {},
                         const std::filesystem::path& binary = {});
  ~ServerProcess();
  ServerProcess(const ServerProcess&) = delete;
  ServerProcess& operator=(const ServerProcess&) = delete;

  [[nodiscard]] unsigned short port() const { return port_; }
  [[nodiscard]] pid_t pid() const { return child_.pid(); }
  [[nodiscard]] std::string stderr_text() const { return child_.stderr_text(); }
  void signal(int sig) { child_.signal(sig); }
  // The exit status (128 + signal when killed), or nullopt if it has not exited in `timeout`.
  std::optional<int> wait_exit(std::chrono::milliseconds timeout = 10s) { return child_.wait_exit(timeout); }

 private:
  ChildProcess child_;
  unsigned short port_ = 0;
};

// Case-insensitive header names, as HTTP has them.
struct NoCase {
  bool operator()(const std::string& a, const std::string& b) const;
};

// How an event stream stopped.
enum class StreamState {
  open,       // more may come
  ended,      // the chunked terminator arrived: the server ended the answer
  lost,       // the connection closed or was reset before the terminator
  timed_out,  // nothing arrived in time
};
const char* to_string(StreamState state);

struct SseEvent {
  std::string name;  // "message" when the event has no `event:` line
  std::string data;  // the data lines, joined by "\n"
};

// One HTTP answer. For an event stream read to its end, `body` is the raw stream and `events`
// its events.
struct Reply {
  unsigned status = 0;
  std::multimap<std::string, std::string, NoCase> headers;
  std::string body;
  std::vector<SseEvent> events;
  StreamState end = StreamState::ended;  // how the answer stopped (an event stream may be cut)
  [[nodiscard]] std::optional<std::string> header(const std::string& name) const;
  [[nodiscard]] bool has_header(const std::string& name) const { return headers.count(name) > 0; }
  [[nodiscard]] bool is_event_stream() const;
  [[nodiscard]] nlohmann::json json() const;  // the body parsed (fails the test when it is not JSON)
};


// One TCP connection to 127.0.0.1:port, reused across requests (keep-alive). A `Host` header
// ("127.0.0.1:PORT") is added unless `headers` name one.
class Client {
 public:
  explicit Client(unsigned short port, std::chrono::milliseconds timeout = 20s);
  ~Client();
  Client(const Client&) = delete;
  Client& operator=(const Client&) = delete;

  // Sends a request and reads the whole answer (an event stream to its end).
  Reply send(const std::string& method, const std::string& target, const Headers& headers = {},
             const std::string& body = {});
  // Sends a request and reads the head of the answer; when it is an event stream, read its
  // events with next_event(), otherwise the body is in the Reply.
  Reply open(const std::string& method, const std::string& target, const Headers& headers = {},
             const std::string& body = {});
  // The next event of the stream open() began; nullopt when the stream stopped (see state()).
  // Keep-alive comments are skipped.
  std::optional<SseEvent> next_event(std::chrono::milliseconds timeout = 20s);
  [[nodiscard]] StreamState state() const { return state_; }
  void close();  // closes the connection (a client that goes away)

 private:
  void connect();
  void write_request(const std::string& method, const std::string& target, const Headers& headers,
                     const std::string& body);
  bool read_more(std::chrono::milliseconds timeout);  // more of the answer's body; false when it stopped
  Reply head_of() const;

  unsigned short port_;
  std::chrono::milliseconds timeout_;
  std::optional<LoopbackSocket> socket_;
  boost::beast::flat_buffer buffer_;
  std::optional<boost::beast::http::response_parser<boost::beast::http::string_body>> parser_;
  std::string pending_;  // stream text not yet split into events
  StreamState state_ = StreamState::ended;
  bool keep_alive_ = true;
};

// A bare socket to 127.0.0.1:port for what a well-behaved client never does.
class RawSocket {
 public:
  explicit RawSocket(unsigned short port);
  RawSocket(const RawSocket&) = delete;
  RawSocket& operator=(const RawSocket&) = delete;
  // Writes all of `bytes`; false when the peer has closed the connection.
  bool write(std::string_view bytes);
  // Whether the peer closes (or resets) the connection within `timeout`; bytes it sends first
  // are kept in received().
  bool closed_within(std::chrono::milliseconds timeout);
  [[nodiscard]] const std::string& received() const { return received_; }

 private:
  LoopbackSocket socket_;
  std::string received_;
};

// Every message of one answer, and the HTTP answer it came in.
struct Exchange {
  Reply http;
  std::vector<nlohmann::json> messages;  // from the JSON body, or from each event of the stream
  [[nodiscard]] const nlohmann::json& last() const;
};

inline constexpr const char* stateless_version = "2026-07-28";

// A stateless server/discover request's body (it needs no session), with this id.
std::string discover_request(long long id = 1);

// MCP over Streamable HTTP (/mcp). Every JSON-RPC message received is validated against the
// negotiated version's schema (2026-07-28 for stateless requests); a violation fails the test.
class McpHttp {
 public:
  explicit McpHttp(unsigned short port, Headers extra = {});

  // initialize, then notifications/initialized (expects 202); returns the session id.
  std::string initialize(const std::string& version = "2025-11-25",
                         nlohmann::json capabilities = nlohmann::json::object(), bool send_initialized = true);
  // Posts `message` with the session's headers (and `extra`, which wins over them; a header
  // given with an empty value is left out) and returns what came back.
  Exchange post(const nlohmann::json& message, const Headers& extra = {});
  // A request with the next id; the response must come (200).
  nlohmann::json request(const std::string& method, nlohmann::json params = nlohmann::json::object());
  nlohmann::json call(const std::string& tool, nlohmann::json arguments);  // the result
  // A stateless request: 2026-07-28 `_meta` and the MCP-Protocol-Version, Mcp-Method and
  // Mcp-Name headers it needs, no session. `extra` wins over the computed headers.
  Exchange stateless(const std::string& method, nlohmann::json params = nlohmann::json::object(),
                     const Headers& extra = {});
  // Requests sent directly carry ids from here; records them for the validation of the answer.
  long long next_id(const std::string& method, const std::string& version = {});

  // Validates a message received outside an answer (on the GET stream, the /sse stream).
  void validate(const nlohmann::json& message);
  [[nodiscard]] const std::string& session_id() const { return session_id_; }
  [[nodiscard]] const std::string& version() const { return version_; }
  void set_session(std::string id, std::string version) {
    session_id_ = std::move(id);
    version_ = std::move(version);
  }
  Client& client() { return client_; }

 private:
  Exchange collect(Reply reply);

  Client client_;
  Headers extra_;
  std::string session_id_;
  std::string version_ = "2025-11-25";
  long long next_id_ = 1;
  std::map<std::string, std::pair<std::string, std::string>> pending_;  // id -> method, version
};

// Validates `message` as one the server sent in answer to `method` (may be empty) under
// `version`: schema errors fail the running test. An error without an id (a refusal before any
// message was read) is checked by hand for versions whose schema cannot express it.
void validate_server_message(const std::string& version, const nlohmann::json& message,
                             const std::string& method = {});

// Checks an HTTP refusal that carries a JSON-RPC error: status, code and exact message, and the
// message's validity under `version`. Returns the error object.
nlohmann::json expect_rpc_error(const Reply& reply, unsigned status, int code, const std::string& message,
                                const std::string& version = "2025-11-25");

// Headers of a Streamable HTTP POST: JSON in, JSON or an event stream out.
Headers post_headers(Headers more = {});

// In a /metrics body, the value of the sample `name{labels}` (labels exactly as written), or -1
// when absent.
double metric_sample(const std::string& metrics, const std::string& series);

// Waits (polling every 20 ms, at most `timeout`) until `condition` holds; returns whether it did.
bool eventually(const std::function<bool()>& condition, std::chrono::milliseconds timeout = 5s);

}  // namespace mcpread::test::http
