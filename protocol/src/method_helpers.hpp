#pragma once
// What a tools/call request and a tools/list request need, whichever era serves them: the
// legacy session (initialize) and the stateless dispatcher (2026-07-28) share these.
#include "mcpread/protocol/session.hpp"

#include <functional>
#include <optional>
#include <string_view>
#include <variant>

namespace mcpread::protocol {

// The tool call a tools/call request asks for (name known, arguments an object), or the response
// that refuses it. The caller fills in protocol_version, cancelled, log and progress.
std::variant<ToolCall, json> prepare_tool_call(const std::vector<ToolDefinition>& tools,
                                               const Message& m);

// _meta.progressToken of a request (string or integer), or null.
json progress_token(const Message& m);

// Sends notifications/progress for `token` through `reply`; a no-op when token is null.
std::function<void(double, std::optional<double>, const std::string&)> progress_sender(
    json token, bool with_message, Reply reply);

// Sends notifications/message through `reply` when `passes(level)`.
std::function<void(LogLevel, const std::string&)> log_sender(std::string logger,
                                                            std::function<bool(LogLevel)> passes,
                                                            Reply reply);

// One page of tools/list for `features`; sets `error` for an unknown cursor.
// Where a paged list (tools/list, prompts/list, resources/templates/list) of `count` items starts: 0, or the position a
// nextCursor of ours names; nullopt with *error set for any other cursor.
// `tag` names the list inside its cursors, `method` the method that returns them.
std::optional<std::size_t> list_start(const Message& m, std::string_view tag, std::string_view method,
                                      std::size_t count, std::optional<MessageError>* error);
json list_tools(const std::vector<ToolDefinition>& tools, const Message& m,
                const VersionFeatures& features, std::optional<MessageError>* error);

MessageError params_error(const json& id, std::string message);
// -32600 for a request whose id is already used by one in progress: the client could not tell
// the two answers apart.
MessageError id_in_use(const json& id);

// ---- resources ----

// Whether `handler` offers resources (at least one template).
bool offers_resources(const ServerHandler& handler);
bool is_resource_method(std::string_view method);
// resources/subscribe and resources/unsubscribe (sessions only: 2026-07-28 has neither).
bool is_subscription_method(std::string_view method);

// One page of resources/templates/list for `features`; sets `error` for an unknown cursor.
json list_resource_templates(const std::vector<ResourceTemplate>& templates, const Message& m,
                             const VersionFeatures& features, std::optional<MessageError>* error);

// The request a resources/list or resources/read message makes (uri or cursor checked), or the
// error that refuses it. The caller fills in protocol_version and cancelled.
std::variant<ResourceRequest, MessageError> prepare_resource_request(const Message& m);

// Hands a prepared request to the handler's list_resources or read_resource.
void start_resource_request(ServerHandler& handler, const std::string& method,
                            ResourceRequest request, std::function<void(ResourceOutcome)> done);

// The response to a resources request: its result, or its error shaped for the era (a missing
// resource is -32002 in sessions, -32602 in stateless requests).
json resource_response(const json& id, const std::string& uri, ResourceOutcome outcome,
                       bool stateless);

}  // namespace mcpread::protocol
