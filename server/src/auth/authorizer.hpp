#pragma once
// What the HTTP transport asks before an MCP request: authorize(Authorization header) gives the
// caller's identity, or the refusal to answer with (challenge.hpp). The token itself goes no
// further than this class: it is neither logged nor handed to the tool host.
#include "challenge.hpp"
#include "resource_metadata.hpp"
#include "token_verifier.hpp"

#include <nlohmann/json_fwd.hpp>

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

namespace mcpread::server::auth {

struct Identity {
  std::string issuer;
  std::string sub;
  std::shared_ptr<const nlohmann::json> claims;  // the token's verified payload
  // Who owns what this identity opens (its sessions): subjects are unique per issuer only.
  [[nodiscard]] std::string owner() const { return issuer + ' ' + sub; }
};

class Authorizer {
 public:
  Authorizer(ResourceMetadata metadata, std::unique_ptr<TokenVerifier> verifier)
      : metadata_(std::move(metadata)), challenge_(metadata_.url(), metadata_.scope()),
        verifier_(std::move(verifier)) {}

  [[nodiscard]] std::variant<Identity, Refusal> authorize(std::optional<std::string_view> authorization) const;
  [[nodiscard]] const ResourceMetadata& metadata() const { return metadata_; }

 private:
  ResourceMetadata metadata_;
  Challenge challenge_;
  std::unique_ptr<TokenVerifier> verifier_;
};

}  // namespace mcpread::server::auth
