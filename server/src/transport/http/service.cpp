#include "service.hpp"

#include "mcpread/server/server_info.hpp"

#include <boost/asio/bind_executor.hpp>
#include <boost/asio/ip/address.hpp>
#include <spdlog/spdlog.h>

#include <thread>

namespace mcpread::server::http {

namespace asio = boost::asio;

namespace {

ConnectionLimits limits_of(const HttpConfig& http) {
  ConnectionLimits limits;
  limits.max_body_bytes = http.max_body_bytes;
  limits.read_timeout = std::chrono::seconds(http.idle_timeout_s);
  return limits;
}

AccessPolicy policy_of(const HttpConfig& http) {
  AccessPolicy policy;
  policy.loopback_only = is_loopback_host(http.host);
  policy.allowed_origins = http.allowed_origins;
  policy.auth_token = http.auth_token;
  return policy;
}

Config with_counters(Config config, WorkCounters& counters) {
  config.counters = &counters;
  return config;
}

}  // namespace

Service::Service(Config config, protocol::ServerInfo info, const MakeHandlers& make_handlers)
    : config_(with_counters(std::move(config), metrics_)),
      signals_(io_, SIGINT, SIGTERM),
      reload_signals_(io_),
      sweep_timer_(io_),
      shutdown_timer_(io_),
      poll_timer_(io_),
      drain_timer_(io_),
      pool_(worker_count(config_.workers)),
      handlers_(make_handlers(config_, pool_)),
      sessions_(config_.http.max_sessions, config_.http.routing_prefix()),
      mcp_(config_, sessions_, info, handlers_),
      sse_(config_, sessions_, info, handlers_),
      ops_(metrics_, sessions_, draining_),
      router_(policy_of(config_.http), config_.http.metrics_token, mcp_, sse_, ops_, metrics_, draining_) {}

Service::~Service() {
  sessions_.end_all();
  pool_.join();
}

int Service::run() {
  boost::system::error_code ec;
  std::string host = config_.http.host == "localhost" ? "127.0.0.1" : config_.http.host;
  const auto address = asio::ip::make_address(host, ec);
  if (ec) {
    spdlog::error("--host {}: not an IP address ({}); use e.g. 127.0.0.1, ::1 or 0.0.0.0",
                  config_.http.host, ec.message());
    return 2;
  }
  listener_ = std::make_shared<Listener>(io_, router_, limits_of(config_.http));
  std::string error;
  if (!listener_->open({address, static_cast<unsigned short>(config_.http.port)}, &error)) {
    spdlog::error("{}", error);
    return 2;
  }
  const auto bound = listener_->local_endpoint();
  const std::string authority = (bound.address().is_v6() ? "[" + bound.address().to_string() + "]"
                                                         : bound.address().to_string()) +
                                ":" + std::to_string(bound.port());
  spdlog::info("listening on http://{}/mcp (Streamable HTTP) and http://{}/sse (HTTP+SSE)", authority,
               authority);
  if (!config_.http.oauth_issuers.empty()) {
    auto authorizer = make_authorizer(bound.port());
    if (!authorizer) return 2;
    router_.set_authorizer(std::move(authorizer));
    if (!config_.http.oauth_roots_file.empty() && !load_identity_roots()) return 2;
  } else if (!is_loopback_host(config_.http.host) && config_.http.auth_token.empty())
    spdlog::warn("listening on {} without --auth-token: anyone who can reach it can read the roots",
                 config_.http.host);
  listener_->start();
  signals_.async_wait(asio::bind_executor(control_, [this](const boost::system::error_code& e, int signal) {
    if (!e) on_signal(signal);
  }));
  sweep_sessions();

  // Connections are cheap for the io threads; tool calls run on the pool. Two io threads let a
  // large write and the parsing of the next request overlap.
  std::thread second([this] { io_.run(); });
  io_.run();
  second.join();
  sessions_.end_all();
  pool_.join();
  return 0;
}

std::shared_ptr<const auth::Authorizer> Service::make_authorizer(unsigned short port) const {
  const auto& http = config_.http;
  std::string resource = http.oauth_resource;
  if (resource.empty()) {
    auto derived = auth::resource_uri_for_listener(http.host, port);
    if (!derived) {
      spdlog::error("--oauth-issuer: listening on {} names no URL for tokens to be issued for; give the URL "
                    "clients reach this server at with --oauth-resource (e.g. https://files.example.com/mcp)",
                    http.host);
      return nullptr;
    }
    resource = *derived;
  }
  std::string error;
  auto verifier = auth::make_token_verifier({http.oauth_issuers, resource, http.oauth_scope, http.oauth_client_id,
                                             http.oauth_client_secret, http.oauth_introspect_all,
                                             http.oauth_introspection_cache_s},
                                            error);
  if (!verifier) {
    spdlog::error("--oauth-issuer: {}", error);
    return nullptr;
  }
  auth::ResourceMetadata metadata(resource, http.oauth_issuers, http.oauth_scope);
  spdlog::info("OAuth: tokens for {} with scope {}; resource metadata at {}", resource, http.oauth_scope,
               metadata.url());
  return std::make_shared<const auth::Authorizer>(std::move(metadata), std::move(verifier));
}

bool Service::load_identity_roots() {
  readers::Roots server_roots;
  std::string error;
  if (!readers::Roots::from_paths(config_.roots, &server_roots, &error)) {
    spdlog::error("--oauth-roots: {}", error);
    return false;
  }
  identity_roots_ = std::make_shared<auth::IdentityRoots>(config_.http.oauth_roots_file, std::move(server_roots));
  if (!identity_roots_->load(error)) {
    spdlog::error("{}", error);
    return false;
  }
  router_.set_identity_roots(identity_roots_);
#ifdef SIGHUP
  reload_signals_.add(SIGHUP);
  await_reload();
#endif
  return true;
}

// SIGHUP reads the policy again. Asio hands the signal over here, on an io thread: nothing runs
// in the signal handler itself. New sessions and every stateless request see the new policy;
// a session keeps the roots it was opened with.
void Service::await_reload() {
  reload_signals_.async_wait(asio::bind_executor(control_, [this](const boost::system::error_code& ec, int) {
    if (ec) return;
    std::string error;
    if (identity_roots_->load(error)) spdlog::info("SIGHUP: --oauth-roots reloaded; new sessions and stateless "
                                                   "requests use it");
    else spdlog::error("SIGHUP: {}; the policy in force stays", error);
    await_reload();
  }));
}

void Service::sweep_sessions() {
  sweep_timer_.expires_after(std::chrono::seconds(std::min<unsigned>(30, config_.http.session_timeout_s)));
  sweep_timer_.async_wait(asio::bind_executor(control_, [this](const boost::system::error_code& ec) {
    if (ec) return;
    const auto deadline = std::chrono::steady_clock::now() - std::chrono::seconds(config_.http.session_timeout_s);
    if (const auto ended = sessions_.end_idle(deadline); ended > 0)
      spdlog::info("http: ended {} unused session(s)", ended);
    sweep_sessions();
  }));
}

// Once every connection is gone, only the shutdown timer keeps io_ running: cancel it then.
void Service::wait_for_connections() {
  poll_timer_.expires_after(std::chrono::milliseconds(20));
  poll_timer_.async_wait(asio::bind_executor(control_, [this](const boost::system::error_code& ec) {
    if (ec) return;
    if (listener_->open_connections() == 0) {
      shutdown_timer_.cancel();
      return;
    }
    wait_for_connections();
  }));
}

void Service::on_signal(int signal) {
  const char* name = signal == SIGINT ? "SIGINT" : "SIGTERM";
  if (draining_.load(std::memory_order_acquire)) {
    spdlog::info("{} received again; stopping now", name);
    shutdown();
    return;
  }
  signals_.async_wait(asio::bind_executor(control_, [this](const boost::system::error_code& e, int again) {
    if (!e) on_signal(again);
  }));
  drain(name);
}

// Draining: /readyz fails at once, so a load balancer stops sending work; new requests that
// still arrive are refused with 503 (the router); the calls in flight run on, up to
// --drain-seconds, before the shutdown cancels what is left.
void Service::drain(const char* why) {
  draining_.store(true, std::memory_order_release);
  sweep_timer_.cancel();
  mcp_.shutdown();  // subscriptions/listen streams end now: they are no work to wait for
  const auto in_flight = metrics_.work_open();
  spdlog::info("{} received; draining: new requests are refused, {} exchange(s) in flight get up to {} s",
               why, in_flight, config_.http.drain_seconds);
  wait_for_work(std::chrono::steady_clock::now() + std::chrono::seconds(config_.http.drain_seconds));
}

void Service::wait_for_work(std::chrono::steady_clock::time_point deadline) {
  if (stopping_) return;
  if (metrics_.work_open() <= 0 && metrics_.calls_busy() <= 0) {
    spdlog::info("drained: no exchange in flight; shutting down");
    shutdown();
    return;
  }
  if (std::chrono::steady_clock::now() >= deadline) {
    spdlog::warn("drain time over with {} exchange(s) in flight; cancelling them and shutting down",
                 metrics_.work_open());
    shutdown();
    return;
  }
  drain_timer_.expires_after(std::chrono::milliseconds(20));
  drain_timer_.async_wait(asio::bind_executor(control_, [this, deadline](const boost::system::error_code& ec) {
    if (!ec) wait_for_work(deadline);
  }));
}

void Service::shutdown() {
  if (stopping_) return;
  stopping_ = true;
  draining_.store(true, std::memory_order_release);
  drain_timer_.cancel();
  sweep_timer_.cancel();
  signals_.cancel();  // a pending wait would keep io_ running
  reload_signals_.cancel();
  mcp_.shutdown();
  sessions_.end_all();  // cancels calls in flight, ends the sessions' streams
  mcp_.cancel_tasks();  // and the calls that became tasks
  listener_->stop();
  // Connections close once their last answer is written; do not wait forever for one.
  shutdown_timer_.expires_after(std::chrono::seconds(5));
  shutdown_timer_.async_wait(asio::bind_executor(control_, [this](const boost::system::error_code& ec) {
    if (!ec) io_.stop();
  }));
  wait_for_connections();
}

}  // namespace mcpread::server::http
