#pragma once
// mcp-read's own handlers: the read tools and the file resources, one ToolHost per session (each
// narrowing the command line's roots by its client's) and one shared by stateless requests.
#include "mcpread/server/config.hpp"
#include "mcpread/server/handlers.hpp"
#include "roots_state.hpp"
#include "tool_host.hpp"

#include <boost/asio/thread_pool.hpp>

namespace mcpread::server {

class ReadHandlers : public HandlerFactory {
 public:
  ReadHandlers(const Config& config, readers::Roots roots, bool roots_default, boost::asio::thread_pool& pool);
  // A session opened by a caller with a ReadScope reads within its roots (its client's roots
  // narrow them); otherwise within the command line's.
  std::unique_ptr<protocol::ServerHandler> session_handler(ClientLog client_log,
                                                           const protocol::Caller& caller) override;
  protocol::ServerHandler& stateless_handler() override { return stateless_host_; }

 private:
  const Config& config_;
  readers::Roots roots_;
  bool roots_default_;
  boost::asio::thread_pool& pool_;
  // Stateless requests read within the command line's roots (no session, so no client roots).
  RootsState stateless_roots_;
  ToolHost stateless_host_;
};

}  // namespace mcpread::server
