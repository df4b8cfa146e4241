// Requests the server sends the client on a tool call's behalf (sampling/createMessage,
// elicitation/create): they go out on the call's own exchange and their answers, which arrive as
// messages of their own, are routed back by id. Every request completes exactly once: with the
// answer, or abandoned when its call is cancelled or finishes, or when the session ends.
#include "mcpread/protocol/session.hpp"

#include "client_requests.hpp"

#include <exception>
#include <utility>
#include <vector>

namespace mcpread::protocol {
namespace {

// A tool's callback must not take the transport's thread down with it.
void complete(const std::function<void(ClientResponse)>& done, ClientResponse response) {
  try {
    done(std::move(response));
  } catch (const std::exception&) {
  }
}

}  // namespace

ClientRequester Session::client_requester(Reply reply, std::shared_ptr<std::atomic<bool>> call) {
  return [this, reply = std::move(reply), call = std::move(call)](
             const std::string& method, json params, std::function<void(ClientResponse)> done) {
    send_client_request(method, std::move(params), reply, call, std::move(done));
  };
}

void Session::send_client_request(const std::string& method, json params, const Reply& reply,
                                  std::shared_ptr<std::atomic<bool>> call,
                                  std::function<void(ClientResponse)> done) {
  if (!params.is_null() && !params.is_object()) {
    complete(done, ClientRequestError{ClientRequestError::Kind::not_supported, error_code::invalid_params,
                                      method + ": the parameters must be an object"});
    return;
  }
  json id;
  {
    std::unique_lock lock(mutex_);
    if (auto refused = cannot_ask(method, client_capabilities_, features_)) {
      lock.unlock();
      complete(done, std::move(*refused));
      return;
    }
    // Checked under the lock that cancellation takes after setting the flag: either this request
    // is refused here or abandon_client_requests finds it.
    if (call && call->load()) {
      lock.unlock();
      complete(done, client_request_cancelled(method, "the tool call was cancelled"));
      return;
    }
    id = "mcp-read-" + std::to_string(next_outgoing_id_++);
    outgoing_[id_key(id)] = Outgoing{method, std::move(done), std::move(call)};
  }
  reply(serialize(make_request(id, method, params.is_null() ? json::object() : std::move(params))), false);
}

void Session::abandon_client_requests(const std::shared_ptr<std::atomic<bool>>& call, const std::string& why) {
  std::vector<Outgoing> abandoned;
  {
    std::lock_guard lock(mutex_);
    for (auto it = outgoing_.begin(); it != outgoing_.end();) {
      if (it->second.done && (!call || it->second.call == call)) {
        abandoned.push_back(std::move(it->second));
        it = outgoing_.erase(it);
      } else {
        ++it;
      }
    }
  }
  for (auto& request : abandoned) complete(request.done, client_request_cancelled(request.method, why));
}

std::size_t Session::awaiting_client() const {
  std::lock_guard lock(mutex_);
  std::size_t n = 0;
  for (const auto& [key, request] : outgoing_) n += request.done ? 1 : 0;
  return n;
}

void Session::handle_response(const Message& m) {
  Outgoing request;
  {
    std::lock_guard lock(mutex_);
    const auto it = outgoing_.find(id_key(m.id));
    if (it == outgoing_.end()) return;  // not ours, or answered already
    request = std::move(it->second);
    outgoing_.erase(it);
  }
  if (!request.done) {
    answer_roots(m);
    return;
  }
  if (!m.error.is_null())
    complete(request.done, client_error(request.method, m.error));
  else
    complete(request.done, client_result(request.method, m.result));
}

}  // namespace mcpread::protocol
