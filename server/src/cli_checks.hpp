#pragma once
// The checks of options that depend on each other, once every option is read (cli.cpp).
#include "mcpread/server/config.hpp"

#include <string>

namespace mcpread::server {

// Why the OAuth options cannot go together (the sentence after "mcp-read: "), or empty.
std::string oauth_conflicts(const HttpConfig& http);

}  // namespace mcpread::server
