// subscriptions/listen in the stateless dispatcher: the request check() accepted opens a stream
// on the hub; its one final answer comes only when the server closes the stream.
#include "mcpread/protocol/stateless.hpp"

#include "subscriptions.hpp"

#include <utility>

namespace mcpread::protocol {

void StatelessDispatcher::listen(const Message& m, const Reply& reply, std::shared_ptr<std::atomic<bool>> cancelled) {
  // check() accepted the filter, so it parses.
  const ListenFilter filter = agreed_filter(std::get<ListenFilter>(parse_listen_filter(m.params)), handler_.list_changes());
  // The graceful end (§Graceful Closure): the request's result, tagged like every message of the stream.
  std::string closing = serialize(make_result(m.id, complete(json{{"_meta", {{subscription_id_key, m.id}}}})));
  if (subscriptions_->listen(m.id, filter, std::move(closing), reply, std::move(cancelled)) ==
      SubscriptionHub::Opened::full) {
    reply(serialize(make_error(m.id, error_code::internal_error,
                               "Internal error: " + std::to_string(SubscriptionHub::default_max_listeners) +
                                   " subscriptions/listen streams are open, the most this server keeps; close "
                                   "one (or cancel it) before opening another")),
          true);
  }
}

void StatelessDispatcher::close_subscriptions() { subscriptions_->close_all(); }

void StatelessDispatcher::drop_cancelled_subscriptions() { subscriptions_->drop_cancelled(); }

}  // namespace mcpread::protocol
