#pragma once
// What one authenticated caller may read (OAuth with --oauth-roots): the roots its identity's
// rules give, before its client's own MCP roots narrow them further. The HTTP transport makes it
// from the token; sessions are made for it, and stateless requests carry it (protocol::Caller).
#include "mcpread/protocol/server_handler.hpp"
#include "mcpread/readers/access.hpp"

#include <memory>
#include <string>

namespace mcpread::server {

struct ReadScope : protocol::CallerScope {
  ReadScope(std::shared_ptr<const readers::Roots> roots_in, std::string sub_in)
      : roots(std::move(roots_in)), sub(std::move(sub_in)) {}
  std::shared_ptr<const readers::Roots> roots;  // never null
  std::string sub;                              // for the logs: who reads
};

}  // namespace mcpread::server
