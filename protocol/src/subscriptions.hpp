#pragma once
// subscriptions/listen (protocol 2026-07-28): a long-lived request whose answer is a stream of
// notifications. The stream opens with notifications/subscriptions/acknowledged (the filter the
// server agreed to), carries only the notification types the client asked for, each tagged with
// the listen request's id in _meta["io.modelcontextprotocol/subscriptionId"], and ends with the
// request's one result only when the server tears it down (shutdown); a client ends it by closing
// the stream (HTTP) or with notifications/cancelled (stdio).
#include "mcpread/protocol/server_handler.hpp"

#include <atomic>
#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <variant>
#include <vector>

namespace mcpread::protocol {

inline constexpr const char* subscription_id_key = "io.modelcontextprotocol/subscriptionId";

// The list-changed notifications a listen request asks for (resourceSubscriptions is accepted
// but never agreed: this server sends no notifications/resources/updated on a stream yet).
struct ListenFilter {
  bool tools = false;
  bool prompts = false;
  bool resources = false;
};

// params.notifications of a listen request, or why it is malformed (the text of a -32602).
std::variant<ListenFilter, std::string> parse_listen_filter(const json& params);
// What the server honours of `requested`: the lists that can change.
ListenFilter agreed_filter(const ListenFilter& requested, const ListChanges& supported);
// The filter as the acknowledgment states it: only the types agreed to.
json filter_json(const ListenFilter& filter);

// The open listen streams of one dispatcher. Thread-safe: listens arrive on transport threads,
// changes on workers. A stream's messages are sent while the hub's lock is held, so that the
// acknowledgment always precedes the notifications of its stream and nothing follows its end;
// the replies it calls must therefore never call back into the hub.
class SubscriptionHub : public ListChangeSink {
 public:
  static constexpr std::size_t default_max_listeners = 64;
  explicit SubscriptionHub(std::size_t max_listeners = default_max_listeners) : max_(max_listeners) {}

  enum class Opened { listening, full };
  // Registers a stream and sends its acknowledgment on `reply` (not final). `closing` is the
  // serialized response that ends it gracefully. `full`: nothing was sent, the caller refuses
  // the request. After close_all() a new stream is acknowledged and closed at once.
  Opened listen(const json& id, const ListenFilter& filter, std::string closing, Reply reply,
                std::shared_ptr<std::atomic<bool>> cancelled);
  // Sends the matching list_changed notification on every stream that asked for it.
  void list_changed(ListKind kind) override;
  // Ends every stream: a live one with its closing response, a cancelled one without an answer.
  void close_all();
  // Ends the cancelled streams (without an answer: the client no longer wants one).
  void drop_cancelled();
  [[nodiscard]] std::size_t size() const;

 private:
  struct Listener {
    json id;
    ListenFilter filter;
    std::string closing;
    Reply reply;
    std::shared_ptr<std::atomic<bool>> cancelled;
    [[nodiscard]] bool gone() const { return cancelled && cancelled->load(); }
  };
  void drop_cancelled_locked();

  const std::size_t max_;
  mutable std::mutex mutex_;
  std::vector<Listener> listeners_;
  bool closed_ = false;
};

}  // namespace mcpread::protocol
