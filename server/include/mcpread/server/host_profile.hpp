#pragma once
// Host profiles: what a given MCP host passes on to its model, and so how a read's answer must
// be shaped to arrive whole there (server/profiles/hosts.json, compiled in; a user file adds or
// replaces profiles). The profile is chosen per request from the client's clientInfo name.
#include "mcpread/protocol/server_handler.hpp"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>
#include <variant>
#include <vector>

namespace mcpread::server {

struct HostProfile {
  enum class Pdf { blob, text, text_and_page_images };
  enum class Audio { block, describe };

  std::string name;
  std::string description;
  std::vector<std::string> measured_on;   // host versions the numbers were measured on
  std::vector<std::string> client_names;  // clientInfo names that select it (case-insensitive)
  nlohmann::json tool_meta = nlohmann::json::object();  // the tool definitions' _meta
  std::size_t text_max_chars = 0;              // text of one answer (0: the server's cap alone)
  std::size_t text_max_chars_with_images = 0;  // the same for answers that may hold images
  std::size_t image_max_bytes = 0;   // bytes of one image the host passes unchanged (0: no limit)
  unsigned image_max_edge = 0;       // pixels of its long side (0: the server's limit)
  std::size_t image_max_tiles = 0;   // 28×28 tiles (0: no limit)
  // Images per answer, counted as the host estimates them (1,600 tokens each) beside the text's
  // characters / 4; images past it are left out with a note (0: no limit).
  std::size_t result_max_image_tokens = 0;
  bool images_after_text = false;  // the host moves images after all text: the text says so
  // Some of the host's models get no images at all: each image comes with its text (OCR).
  bool image_text = false;
  Pdf pdf = Pdf::blob;
  Audio audio = Audio::block;
  bool structured_content = true;  // may structuredContent be sent (when --structured-content)
  bool keeps_is_error = true;      // false: the text itself must say that it is an error
};

class HostProfiles {
 public:
  // The built-in profiles, then those of `user_file` (empty: none) by name. The error says which
  // file and what is wrong.
  static std::variant<HostProfiles, std::string> load(const std::string& user_file);
  // The built-in profiles alone (they are checked by the tests: loading them cannot fail).
  static HostProfiles builtin();

  // The profile for this client: `forced` ("auto" or empty: by clientInfo name), else "generic".
  [[nodiscard]] const HostProfile& select(const protocol::ClientInfo& client) const;
  [[nodiscard]] const HostProfile* find(const std::string& name) const;
  [[nodiscard]] const std::vector<HostProfile>& all() const { return profiles_; }
  // Makes every request use the profile `name` ("auto": choose by client). False if unknown.
  bool force(const std::string& name);

 private:
  std::vector<HostProfile> profiles_;
  std::string forced_;
};

// The compiled-in profile data (server/profiles/hosts.json).
extern const char* const builtin_host_profiles_json;

}  // namespace mcpread::server
