#include "mcpread/server/server_info.hpp"

#include <algorithm>
#include <thread>

namespace mcpread::server {

protocol::ServerInfo server_info() {
  return {"mcp-read", "mcp-read: file reader for models", MCPREAD_VERSION,
          "Use the read tool to read files: text with numbered lines (offset/limit to page "
          "through large files), images sized for the model, PDFs page by page, notebooks with "
          "their outputs, audio, and directory listings. Paths must lie inside the allowed "
          "roots."};
}

std::size_t worker_count(std::size_t configured) {
  if (configured != 0) return configured;
  return std::max<std::size_t>(2, std::thread::hardware_concurrency());
}

}  // namespace mcpread::server
