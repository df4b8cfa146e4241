// JSON-RPC batches (protocol 2025-03-26): each element handled as a message of its own, the
// answers sent together as one array once the slowest is in.
#include "mcpread/protocol/session.hpp"

#include <utility>

namespace mcpread::protocol {

// Collects the answers of a batch and sends them as one array when the last one is in.
struct Session::Batch {
  Batch(Reply r, std::size_t n, bool expects) : reply(std::move(r)), pending(n), expects_reply(expects) {}
  void add(std::optional<json> response) {
    std::unique_lock lock(mutex);
    if (response) responses.push_back(std::move(*response));
    if (--pending != 0) return;
    json all = std::move(responses);
    lock.unlock();
    if (!all.empty())
      reply(serialize(all), true);
    else if (expects_reply)
      reply(std::string(), true);  // every request in it was cancelled: close the exchange
  }
  std::mutex mutex;
  Reply reply;
  std::size_t pending;
  bool expects_reply;
  json responses = json::array();
};

bool Session::handle_batch(const json& array, Reply reply) {
  bool batches = false;
  {
    std::lock_guard lock(mutex_);
    batches = features_.batches && phase_ != Phase::awaiting_initialize;
  }
  if (!batches) {
    reply(unaddressed_error(error_code::invalid_request,
                            "Invalid Request: JSON-RPC batches are accepted only when protocol "
                            "version 2025-03-26 was negotiated"),
          true);
    return true;
  }
  if (array.empty()) {
    reply(unaddressed_error(error_code::invalid_request, "Invalid Request: empty batch"), true);
    return true;
  }
  std::vector<std::variant<Message, MessageError>> messages;
  messages.reserve(array.size());
  bool expects = false;
  for (const auto& element : array) {
    messages.push_back(to_message(element));
    const auto* m = std::get_if<Message>(&messages.back());
    expects = expects || m == nullptr || m->kind == MessageKind::request;
  }
  auto batch = std::make_shared<Batch>(reply, messages.size(), expects);
  for (const auto& message : messages) {
    if (const auto* e = std::get_if<MessageError>(&message)) {
      batch->add(error_json(*e));
      continue;
    }
    const Message& m = std::get<Message>(message);
    if (m.kind == MessageKind::request) {
      handle_request(m, true, reply, [batch](std::optional<json> r) { batch->add(std::move(r)); });
    } else {
      if (m.kind == MessageKind::notification)
        handle_notification(m);
      else
        handle_response(m);
      batch->add(std::nullopt);
    }
  }
  return expects;
}

}  // namespace mcpread::protocol
