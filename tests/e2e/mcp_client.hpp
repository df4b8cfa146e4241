#pragma once
// An MCP client for end-to-end tests: spawns mcp-read with pipes, speaks newline-delimited
// JSON-RPC, and validates every message the server sends against the official schema of the
// negotiated version (a schema failure fails the running test).
#include "child_process.hpp"

#include <nlohmann/json.hpp>

#include <chrono>
#include <deque>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace mcpread::test {

class McpClient {
 public:
  struct Options {
    Options(std::vector<std::string> a, std::filesystem::path c = {}, std::vector<std::string> e = {})
        : args(std::move(a)), cwd(std::move(c)), extra_env(std::move(e)) {}
    std::vector<std::string> args;       // arguments after the binary (roots, options)
    std::filesystem::path cwd;           // empty: inherit
    std::vector<std::string> extra_env;  // "NAME=value"
    std::vector<std::string> prefix;     // a wrapper run before the binary (absolute path first)
  };

  explicit McpClient(Options options);
  ~McpClient();
  McpClient(const McpClient&) = delete;
  McpClient& operator=(const McpClient&) = delete;

  // Sends an initialize request and the initialized notification; returns the initialize result.
  nlohmann::json initialize(const std::string& version = "2025-11-25",
                            nlohmann::json capabilities = nlohmann::json::object());

  // Sends a request with the next id and waits for its response (result or error message).
  // Messages that arrive meanwhile are kept in `others()`.
  nlohmann::json request(const std::string& method, nlohmann::json params = nlohmann::json::object(),
                         std::chrono::milliseconds timeout = std::chrono::seconds(20));
  // A stateless request (protocol 2026-07-28 on): `params._meta` gets the version and empty
  // client capabilities; the answer is validated against that version's schema.
  nlohmann::json stateless_request(const std::string& method,
                                   nlohmann::json params = nlohmann::json::object(),
                                   const std::string& version = "2026-07-28");
  // tools/call of `tool` with `arguments`; returns the result object (fails the test on error).
  nlohmann::json call(const std::string& tool, nlohmann::json arguments);

  long long send_request(const std::string& method, nlohmann::json params);  // returns the id
  void send(const nlohmann::json& message);
  void send_raw(const std::string& bytes);  // exactly these bytes
  // The next message from the server, or nullopt on timeout/EOF.
  std::optional<nlohmann::json> receive(std::chrono::milliseconds timeout = std::chrono::seconds(20));
  // Waits for the response with this id (other messages go to others()).
  std::optional<nlohmann::json> wait_for_id(const nlohmann::json& id,
                                            std::chrono::milliseconds timeout = std::chrono::seconds(20));

  void close_stdin() { child_.close_stdin(); }
  // Waits for the process to exit; its exit status, or nullopt on timeout.
  std::optional<int> wait_exit(std::chrono::milliseconds timeout = std::chrono::seconds(10)) {
    return child_.wait_exit(timeout);
  }
  void signal(int sig) { child_.signal(sig); }
  [[nodiscard]] pid_t pid() const { return child_.pid(); }
  [[nodiscard]] std::string stderr_text() const { return child_.stderr_text(); }
  std::deque<nlohmann::json>& others() { return others_; }
  [[nodiscard]] const std::string& version() const { return version_; }
  // Everything read from stdout that was not a complete JSON line (must stay empty).
  [[nodiscard]] const std::string& garbage() const { return garbage_; }

 private:
  void validate(const nlohmann::json& message);

  ChildProcess child_;
  std::string buffer_;
  std::string garbage_;
  std::deque<nlohmann::json> others_;
  std::string version_ = "2025-11-25";
  long long next_id_ = 1;
  struct Pending {
    std::string id_key;
    std::string method;
    std::string version;  // the request's _meta protocol version (stateless); empty: the session's
  };
  std::vector<Pending> pending_methods_;
};

// A fresh directory with fixture files, to pass as the server's root.
std::filesystem::path binary_path();

}  // namespace mcpread::test
