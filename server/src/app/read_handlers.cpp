#include "read_handlers.hpp"

#include "mcpread/server/read_scope.hpp"

#include <utility>

namespace mcpread::server {
namespace {

// Each session narrows the roots with its own client's: a RootsState per session, built before
// the ToolHost that refers to it (base classes are built in the order they are listed).
struct SessionRoots {
  SessionRoots(readers::Roots cli_roots, bool roots_default) : session_roots(std::move(cli_roots), roots_default) {}
  RootsState session_roots;
};

class SessionReadHost : private SessionRoots, public ToolHost {
 public:
  SessionReadHost(const Config& config, readers::Roots cli_roots, bool roots_default, boost::asio::thread_pool& pool,
                  HandlerFactory::ClientLog client_log, std::shared_ptr<const ReadScope> scope)
      : SessionRoots(std::move(cli_roots), roots_default), ToolHost(config, session_roots, pool) {
    set_client_log(std::move(client_log));
    set_session_scope(std::move(scope));
  }
};

}  // namespace

ReadHandlers::ReadHandlers(const Config& config, readers::Roots roots, bool roots_default,
                           boost::asio::thread_pool& pool)
    : config_(config),
      roots_(std::move(roots)),
      roots_default_(roots_default),
      pool_(pool),
      stateless_roots_(roots_, false),
      stateless_host_(config, stateless_roots_, pool) {}

std::unique_ptr<protocol::ServerHandler> ReadHandlers::session_handler(ClientLog client_log,
                                                                     const protocol::Caller& caller) {
  // The identity's roots are the session's server roots: its client's roots can only narrow them.
  if (auto scope = std::dynamic_pointer_cast<const ReadScope>(caller.scope))
    return std::make_unique<SessionReadHost>(config_, *scope->roots, false, pool_, std::move(client_log), scope);
  return std::make_unique<SessionReadHost>(config_, roots_, roots_default_, pool_, std::move(client_log), nullptr);
}

}  // namespace mcpread::server
