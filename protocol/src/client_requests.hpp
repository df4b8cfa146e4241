#pragma once
// Requests the server makes of the client (sampling/createMessage, elicitation/create): whether
// the client can take them, and what its answer means. Shared by sessions (a real request and
// response) and stateless requests (an input request and the client's input response).
#include "mcpread/protocol/server_handler.hpp"

#include <optional>
#include <string>

namespace mcpread::protocol {

// Why `method` cannot be asked of a client with `client_capabilities` in a version with
// `features`, or nullopt when it can.
std::optional<ClientRequestError> cannot_ask(const std::string& method, const json& client_capabilities,
                                             const VersionFeatures& features);

// The outcome of a client's result for `method`: the result, or Kind::malformed naming what is
// wrong with it.
ClientResponse client_result(const std::string& method, json result);
// The outcome of a client's JSON-RPC error object.
ClientRequestError client_error(const std::string& method, const json& error);

ClientRequestError client_request_cancelled(const std::string& method, const std::string& why);

}  // namespace mcpread::protocol
