#include "subscriptions.hpp"

#include "mcpread/protocol/jsonrpc.hpp"

#include <algorithm>
#include <utility>

namespace mcpread::protocol {
namespace {

constexpr const char* tools_field = "toolsListChanged";
constexpr const char* prompts_field = "promptsListChanged";
constexpr const char* resources_field = "resourcesListChanged";
constexpr const char* resource_uris_field = "resourceSubscriptions";

const char* method_of(ListKind kind) {
  switch (kind) {
    case ListKind::tools: return "notifications/tools/list_changed";
    case ListKind::prompts: return "notifications/prompts/list_changed";
    case ListKind::resources: return "notifications/resources/list_changed";
  }
  return "";
}

bool wants(const ListenFilter& filter, ListKind kind) {
  return kind == ListKind::tools ? filter.tools : kind == ListKind::prompts ? filter.prompts : filter.resources;
}

json tagged(const json& id, json params = json::object()) {
  params["_meta"][subscription_id_key] = id;
  return params;
}

}  // namespace

std::variant<ListenFilter, std::string> parse_listen_filter(const json& params) {
  const auto notifications = params.find("notifications");
  if (notifications == params.end() || !notifications->is_object())
    return std::string("\"subscriptions/listen\" needs \"notifications\" (an object naming the notifications to "
                       "receive, e.g. {\"toolsListChanged\": true})");
  ListenFilter filter;
  for (const auto& [field, flag] : {std::pair{tools_field, &filter.tools}, std::pair{prompts_field, &filter.prompts},
                                    std::pair{resources_field, &filter.resources}}) {
    const auto value = notifications->find(field);
    if (value == notifications->end()) continue;
    if (!value->is_boolean()) return "notifications." + std::string(field) + " must be a boolean";
    *flag = value->get<bool>();
  }
  if (const auto uris = notifications->find(resource_uris_field); uris != notifications->end()) {
    const bool strings = uris->is_array() && std::all_of(uris->begin(), uris->end(),
                                                         [](const json& uri) { return uri.is_string(); });
    if (!strings) return "notifications." + std::string(resource_uris_field) + " must be an array of URI strings";
  }
  return filter;
}

ListenFilter agreed_filter(const ListenFilter& requested, const ListChanges& supported) {
  return ListenFilter{requested.tools && supported.tools, requested.prompts && supported.prompts,
                      requested.resources && supported.resources};
}

json filter_json(const ListenFilter& filter) {
  json out = json::object();
  if (filter.tools) out[tools_field] = true;
  if (filter.prompts) out[prompts_field] = true;
  if (filter.resources) out[resources_field] = true;
  return out;
}

SubscriptionHub::Opened SubscriptionHub::listen(const json& id, const ListenFilter& filter, std::string closing,
                                                Reply reply, std::shared_ptr<std::atomic<bool>> cancelled) {
  std::lock_guard lock(mutex_);
  drop_cancelled_locked();
  if (!closed_ && listeners_.size() >= max_) return Opened::full;
  reply(serialize(make_notification("notifications/subscriptions/acknowledged",
                                    tagged(id, json{{"notifications", filter_json(filter)}}))),
        false);
  if (closed_) {
    reply(std::move(closing), true);  // the server is shutting down: the stream ends at once
    return Opened::listening;
  }
  listeners_.push_back(Listener{id, filter, std::move(closing), std::move(reply), std::move(cancelled)});
  return Opened::listening;
}

void SubscriptionHub::list_changed(ListKind kind) {
  std::lock_guard lock(mutex_);
  drop_cancelled_locked();
  for (const Listener& l : listeners_)
    if (wants(l.filter, kind)) l.reply(serialize(make_notification(method_of(kind), tagged(l.id))), false);
}

void SubscriptionHub::close_all() {
  std::lock_guard lock(mutex_);
  closed_ = true;
  for (Listener& l : listeners_) l.reply(l.gone() ? std::string() : std::move(l.closing), true);
  listeners_.clear();
}

void SubscriptionHub::drop_cancelled() {
  std::lock_guard lock(mutex_);
  drop_cancelled_locked();
}

void SubscriptionHub::drop_cancelled_locked() {
  const auto gone = std::stable_partition(listeners_.begin(), listeners_.end(),
                                          [](const Listener& l) { return !l.gone(); });
  for (auto it = gone; it != listeners_.end(); ++it) it->reply(std::string(), true);
  listeners_.erase(gone, listeners_.end());
}

std::size_t SubscriptionHub::size() const {
  std::lock_guard lock(mutex_);
  return listeners_.size();
}

}  // namespace mcpread::protocol
