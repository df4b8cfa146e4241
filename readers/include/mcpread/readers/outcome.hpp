#pragma once
// What a reader hands back: content blocks in the order the model should see them, plus
// machine-readable metadata. Readers know nothing of JSON-RPC; the server turns this into a
// tools/call result (blocks -> content, meta -> _meta, is_error -> isError).
#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace mcpread::readers {

// The bytes of an image, a recording or a document, as sent. They stay bytes until the answer
// is written: the server hands them over as a JSON binary value, whose base64 the protocol layer
// encodes straight into the outgoing message (one copy of megabytes instead of three).
using Bytes = nlohmann::json::binary_t::container_type;

inline std::string_view view_of(const Bytes& b) {
  return {reinterpret_cast<const char*>(b.data()), b.size()};
}
inline Bytes bytes_of(std::string_view s) {
  const auto* p = reinterpret_cast<const std::uint8_t*>(s.data());
  return Bytes(p, p + s.size());
}

struct TextBlock {
  std::string text;  // always valid UTF-8
};
struct ImageBlock {
  std::string mime_type;
  Bytes data;
};
struct AudioBlock {
  std::string mime_type;
  Bytes data;
};
struct BlobResourceBlock {
  std::string uri;
  std::string mime_type;
  Bytes data;
};

using Block = std::variant<TextBlock, ImageBlock, AudioBlock, BlobResourceBlock>;

struct ReadOutcome {
  std::vector<Block> blocks;
  nlohmann::json meta = nlohmann::json::object();
  bool is_error = false;
  bool cancelled = false;  // the work stopped because its CancelToken fired
  // Only for a request with `nowait`: the read would have waited (for the disk, or on work
  // longer than a small text read) and was not done; nothing else is set.
  bool deferred = false;

  static ReadOutcome error(std::string message, nlohmann::json meta = nlohmann::json::object()) {
    ReadOutcome o;
    o.is_error = true;
    o.blocks.emplace_back(TextBlock{std::move(message)});
    o.meta = std::move(meta);
    return o;
  }
  static ReadOutcome waits() {
    ReadOutcome o;
    o.deferred = true;
    return o;
  }
  static ReadOutcome stopped() {
    ReadOutcome o = error("The read was cancelled.");
    o.cancelled = true;
    return o;
  }
};

}  // namespace mcpread::readers
