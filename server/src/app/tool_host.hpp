#pragma once
// The server's side of the protocol: the tools and resources it offers and where their work
// runs. Tool calls and resource requests are posted to a worker pool so that the transport keeps
// answering (ping, cancellations) while a slow read runs.
#include "mcpread/server/config.hpp"
#include "roots_state.hpp"

#include "mcpread/protocol/session.hpp"
#include "mcpread/readers/resources.hpp"

#include <boost/asio/thread_pool.hpp>

#include <functional>
#include <optional>
#include <mutex>
#include <set>
#include <string>
#include <vector>

namespace mcpread::server {

class ReadBudget;
struct ReadScope;

class ToolHost : public protocol::ServerHandler {
 public:
  using ClientLog = std::function<void(protocol::LogLevel, const std::string&)>;

  ToolHost(const Config& config, RootsState& roots, boost::asio::thread_pool& pool);

  // Where messages for the client's log go (the session's notifications/message).
  void set_client_log(ClientLog log) { client_log_ = std::move(log); }
  // The session's caller, when it was opened by an authenticated identity: named in the logs.
  void set_session_scope(std::shared_ptr<const ReadScope> scope) { session_scope_ = std::move(scope); }

  [[nodiscard]] const std::vector<protocol::ToolDefinition>& tools() const override { return tools_; }
  // The tools with the hints of the client's host profile (tool _meta; no outputSchema where the
  // host must not get structuredContent).
  [[nodiscard]] std::vector<protocol::ToolDefinition> tools_for(const protocol::ClientInfo& client) const override;
  void call_tool(protocol::ToolCall call, std::function<void(protocol::ToolOutcome)> done) override;
  [[nodiscard]] const std::vector<protocol::ResourceTemplate>& resource_templates() const override {
    return templates_;
  }
  void list_resources(protocol::ResourceRequest request,
                      std::function<void(protocol::ResourceOutcome)> done) override;
  void read_resource(protocol::ResourceRequest request,
                     std::function<void(protocol::ResourceOutcome)> done) override;
  void roots_requested() override;
  // Clients may follow the tool list on a subscriptions/listen stream (2026-07-28). It changes
  // only with the binary today, so such a stream stays silent until the server ends it.
  [[nodiscard]] protocol::ListChanges list_changes() const override { return {.tools = true}; }
  void roots_received(const std::vector<std::string>& uris) override;
  void roots_failed(const std::string& why) override;

  // Runs one call synchronously (what the worker does); public for tests.
  nlohmann::json run_call(const protocol::ToolCall& call) const { return *read_call(call, false); }
  // resources/list and resources/read, run synchronously (what the worker does); for tests.
  protocol::ResourceOutcome run_list(const protocol::ResourceRequest& request) const;
  protocol::ResourceOutcome run_read(const protocol::ResourceRequest& request) const;

  // Files per resources/list page, and the listing's bounds.
  static constexpr std::size_t resources_page_size = 200;
  readers::ResourceListLimits resource_limits;

 private:
  const Config& config_;
  RootsState& roots_;
  boost::asio::thread_pool& pool_;
  // Runs `work` on the pool and hands its outcome (or the exception it threw) to `done`.
  void post_resource_work(const char* what, protocol::ResourceRequest request,
                          std::function<void(protocol::ResourceOutcome)> done,
                          protocol::ResourceOutcome (ToolHost::*work)(const protocol::ResourceRequest&) const);

  // Reads, shapes and answers one call (on a worker, or inline for a quick read). With `nowait`,
  // a read that would wait is not done: false, nothing answered.
  bool answer(const protocol::ToolCall& call, const std::function<void(protocol::ToolOutcome)>& done,
              const std::shared_ptr<ReadBudget>& budget, bool nowait);
  // The call's result; with `nowait`, nullopt when the read would wait (readers/read.hpp).
  std::optional<nlohmann::json> read_call(const protocol::ToolCall& call, bool nowait) const;
  // Whether this call may be tried on the calling thread (config_.inline_quick_reads): its
  // arguments ask for nothing that always takes a while.
  [[nodiscard]] bool may_answer_inline(const protocol::ToolCall& call) const;
  // The largest file read on the calling thread (when it is all in the page cache).
  static constexpr std::uint64_t quick_read_max_bytes = 1024 * 1024;

  // The roots a request reads within: a stateless request's caller's (OAuth) or else the roots
  // state's, narrowed by the request's own client roots when it brought them. nullptr when
  // cancelled while waiting for the session's roots.
  std::shared_ptr<const readers::Roots> roots_of(const std::optional<std::vector<std::string>>& client_roots,
                                                 const std::shared_ptr<const protocol::CallerScope>& caller,
                                                 const std::atomic<bool>* cancelled) const;
  // Whether the caller (a stateless request's, or else the session's) is an OAuth identity to
  // which the --oauth-roots policy gives no directory.
  [[nodiscard]] bool identity_has_no_roots(const std::shared_ptr<const protocol::CallerScope>& caller) const;
  // Who reads, for the logs: " (sub alice)", or empty without OAuth.
  [[nodiscard]] std::string who(const std::shared_ptr<const protocol::CallerScope>& caller) const;

  // Tells config_.counters, if any, how a read ended.
  void count_read(const readers::ReadOutcome& outcome) const;
  // The profile for this call's client; logged (info) the first time a client name is seen.
  const HostProfile& profile_for(const protocol::ClientInfo& client) const;

  std::vector<protocol::ToolDefinition> tools_;
  mutable std::mutex clients_mutex_;
  mutable std::set<std::string> clients_seen_;
  std::vector<protocol::ResourceTemplate> templates_;
  ClientLog client_log_;
  std::shared_ptr<const ReadScope> session_scope_;
};

}  // namespace mcpread::server
