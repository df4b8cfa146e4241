#pragma once
// What the server says of itself, and how many workers serve tool calls: the same on every
// transport.
#include "mcpread/protocol/server_handler.hpp"

#include <cstddef>

namespace mcpread::server {

protocol::ServerInfo server_info();
// `configured`, or one per core and at least 2 when it is 0.
std::size_t worker_count(std::size_t configured);

}  // namespace mcpread::server
