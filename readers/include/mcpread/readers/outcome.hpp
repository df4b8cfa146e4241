#pragma once
// What a reader hands back: content blocks in the order the model should see them, plus
// machine-readable metadata. Readers know nothing of JSON-RPC; the server turns this into a
// tools/call result (blocks -> content, meta -> _meta, is_error -> isError).
#include <nlohmann/json.hpp>

#include <string>
#include <variant>
#include <vector>

namespace mcpread::readers {

struct TextBlock {
  std::string text;  // always valid UTF-8
};
struct ImageBlock {
  std::string mime_type;
  std::string base64;
};
struct AudioBlock {
  std::string mime_type;
  std::string base64;
};
struct BlobResourceBlock {
  std::string uri;
  std::string mime_type;
  std::string base64;
};

using Block = std::variant<TextBlock, ImageBlock, AudioBlock, BlobResourceBlock>;

struct ReadOutcome {
  std::vector<Block> blocks;
  nlohmann::json meta = nlohmann::json::object();
  bool is_error = false;
  bool cancelled = false;  // the work stopped because its CancelToken fired

  static ReadOutcome error(std::string message, nlohmann::json meta = nlohmann::json::object()) {
    ReadOutcome o;
    o.is_error = true;
    o.blocks.emplace_back(TextBlock{std::move(message)});
    o.meta = std::move(meta);
    return o;
  }
  static ReadOutcome stopped() {
    ReadOutcome o = error("The read was cancelled.");
    o.cancelled = true;
    return o;
  }
};

}  // namespace mcpread::readers
