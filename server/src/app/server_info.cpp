#include "mcpread/server/server_info.hpp"

#include "mcpread/readers/registry.hpp"

#include <algorithm>
#include <thread>

namespace mcpread::server {

protocol::ServerInfo server_info() {
  // The formats are the registered readers': every client reads this at initialize (Claude Code
  // puts it in the system prompt), so a new reader is named here without a second list.
  return {"mcp-read", "mcp-read: file reader for models", MCPREAD_VERSION,
          "Use the read tool to read files (" + readers::reader_nouns() +
              ") and list directories: text with numbered lines, images sized for the model, "
              "offset/limit or pages to page through large files. Paths must lie inside the "
              "allowed roots."};
}

std::size_t worker_count(std::size_t configured) {
  if (configured != 0) return configured;
  return std::max<std::size_t>(2, std::thread::hardware_concurrency());
}

}  // namespace mcpread::server
