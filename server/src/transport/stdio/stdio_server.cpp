#include "mcpread/server/stdio_server.hpp"

#include "mcpread/server/server_info.hpp"
#include "read_handlers.hpp"
#include "service.hpp"

namespace mcpread::server {

StdioServer::StdioServer(Config config, readers::Roots roots, bool roots_default)
    : StdioServer(std::move(config), server_info(),
                  [&roots, roots_default](const Config& c, boost::asio::thread_pool& pool) {
                    return std::make_shared<ReadHandlers>(c, std::move(roots), roots_default, pool);
                  }) {}

StdioServer::StdioServer(Config config, protocol::ServerInfo info, const MakeHandlers& make_handlers)
    : service_(std::make_unique<stdio::Service>(std::move(config), std::move(info), make_handlers)) {}

StdioServer::~StdioServer() = default;

int StdioServer::run() { return service_->run(); }

}  // namespace mcpread::server
