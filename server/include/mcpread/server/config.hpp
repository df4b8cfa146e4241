#pragma once
// The server's settings: what the command line and the MCP_READ_* environment set (cli.hpp), and
// what the transports, the tool host and the host profiles read.
#include "mcpread/server/host_profile.hpp"
#include "mcpread/server/work_counters.hpp"

#include "mcpread/protocol/stateless.hpp"
#include "mcpread/readers/read.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace mcpread::server {

// The HTTP transport's settings (--transport http).
struct HttpConfig {
  std::string host = "127.0.0.1";  // loopback unless asked: DNS-rebinding-safe by default
  unsigned port = 0;                // 0: any free port (the URL is logged)
  std::vector<std::string> allowed_origins;  // besides localhost origins
  std::string auth_token;           // non-empty: requests need "Authorization: Bearer <token>"
  std::string metrics_token;        // non-empty: /healthz, /readyz and /metrics take this token instead
  // OAuth 2.1 resource server (non-empty issuers; excludes auth_token): requests need a JWT access
  // token from one of these authorization servers, for oauth_resource, with oauth_scope.
  std::vector<std::string> oauth_issuers;
  std::string oauth_resource;  // canonical URI; empty: http://<host>:<port>/mcp
  std::string oauth_scope = "files:read";
  // Roots per identity (auth/roots_policy.hpp): a JSON policy mapping token claims to roots,
  // reloaded on SIGHUP. Empty: every token holder reads within the server's roots.
  std::string oauth_roots_file;
  // Token introspection (RFC 7662) at the issuer, for opaque tokens (and JWTs too with
  // oauth_introspect_all), when oauth_client_id is set. The secret comes from the environment
  // only (MCP_READ_OAUTH_CLIENT_SECRET), never from the command line, and is never logged.
  std::string oauth_client_id;
  std::string oauth_client_secret;
  bool oauth_introspect_all = false;
  unsigned oauth_introspection_cache_s = 300;  // how long an active answer is reused (0: never)
  std::size_t max_body_bytes = 16u << 20;
  std::size_t max_sessions = 1000;
  unsigned idle_timeout_s = 60;      // a connection's time to send a whole request
  unsigned session_timeout_s = 1800;  // an unused session's lifetime
  // SIGTERM: how long calls in flight may run on before the server stops them and exits (new
  // requests are refused with 503 meanwhile, and /readyz says draining).
  unsigned drain_seconds = 10;
  // Starts every session id and task id ("<replica_id>.<random>"), so that a load balancer in
  // front of several replicas can send a session's requests, and a task's tasks/get, to the
  // replica that holds it. Empty: none.
  std::string replica_id;
  // The prefix those ids start with: "<replica_id>." or empty.
  [[nodiscard]] std::string routing_prefix() const { return replica_id.empty() ? std::string() : replica_id + "."; }
};

enum class Transport { stdio, http };

struct Config {
  Transport transport = Transport::stdio;
  protocol::ClientRoots stateless_roots = protocol::ClientRoots::ignore;
  HttpConfig http;
  std::vector<std::string> roots;  // as given; empty means the current directory
  std::string log_level = "info";  // stderr log level (spdlog names)
  bool log_json = false;           // --log-format json: one JSON object per log line
  std::size_t max_message_bytes = 16u << 20;
  std::size_t workers = 0;  // 0: one per core, at least 2
  unsigned roots_wait_ms = 3000;  // how long a read waits for the client's roots/list answer
  // How long a 2026-07-28 read from a client that declares the tasks extension may run before it
  // becomes a task (0: at once).
  unsigned task_after_ms = 1500;
  // After this long without a call, freed heap and the pages of loaded libraries' code go back to
  // the system (0: never; see app/idle_memory.hpp).
  unsigned idle_release_ms = 1000;
  // Quick reads (small plain-text files all in the page cache, read without waiting: `nowait` in
  // readers/read.hpp) are answered on the thread that received them, without the hand-offs to
  // the worker pool and back. Set by
  // the stdio transport, whose reader thread holds no lock when it calls a tool.
  bool inline_quick_reads = false;
  bool structured_content = false;
  readers::ReadLimits limits;
  std::string host_profile = "auto";  // a profile's name, or auto: chosen by the client's name
  std::string host_profiles_file;     // profiles added to (or replacing) the built-in ones
  HostProfiles host_profiles = HostProfiles::builtin();
  // Where the tool host reports its work (set by the HTTP transport for /metrics; null: nowhere).
  WorkCounters* counters = nullptr;
};

}  // namespace mcpread::server
