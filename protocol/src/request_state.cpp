#include "mcpread/protocol/request_state.hpp"

#include <nettle/base64.h>
#include <nettle/hmac.h>
#include <nettle/memops.h>
#include <nettle/sha2.h>
#include "mcpread/common/platform.hpp"

#include <cerrno>
#include <chrono>
#include <random>
#include <utility>

namespace mcpread::protocol {
namespace {

std::string base64url(const std::uint8_t* data, std::size_t size) {
  std::string out(BASE64_ENCODE_LENGTH(size) + BASE64_ENCODE_FINAL_LENGTH, '\0');
  base64_encode_ctx ctx;
  base64url_encode_init(&ctx);
  std::size_t n = base64_encode_update(&ctx, out.data(), size, data);
  n += base64_encode_final(&ctx, out.data() + n);
  out.resize(n);
  return out;
}

std::string base64url(const std::string& text) {
  return base64url(reinterpret_cast<const std::uint8_t*>(text.data()), text.size());
}

// The decoded bytes, or false for text that is not base64url.
bool unbase64url(const std::string& text, std::string* out) {
  out->assign(BASE64_DECODE_LENGTH(text.size()), '\0');
  base64_decode_ctx ctx;
  base64url_decode_init(&ctx);
  std::size_t n = out->size();
  if (base64_decode_update(&ctx, &n, reinterpret_cast<std::uint8_t*>(out->data()), text.size(), text.data()) != 1 ||
      base64_decode_final(&ctx) != 1)
    return false;
  out->resize(n);
  return true;
}

// Arguments the parser accepted are valid UTF-8; `replace` only keeps dump() from ever throwing.
std::string canonical(const json& value) { return value.dump(-1, ' ', false, json::error_handler_t::replace); }

std::string digest_of(const json& arguments) {
  const std::string text = canonical(arguments);
  sha256_ctx ctx;
  sha256_init(&ctx);
  sha256_update(&ctx, text.size(), reinterpret_cast<const std::uint8_t*>(text.data()));
  std::array<std::uint8_t, SHA256_DIGEST_SIZE> digest{};
  sha256_digest(&ctx, digest.size(), digest.data());
  return base64url(digest.data(), digest.size());
}

StateSeal::Key random_key() {
  StateSeal::Key key{};
  std::size_t filled = 0;
  while (filled < key.size()) {
    const std::ptrdiff_t n = platform::random_bytes(key.data() + filled, key.size() - filled);
    if (n > 0) {
      filled += static_cast<std::size_t>(n);
    } else if (n < 0 && errno != EINTR) {
      // No getrandom (a very old kernel): the library's own source of randomness.
      std::random_device device;
      for (auto& byte : key) byte = static_cast<std::uint8_t>(device());
      break;
    }
  }
  return key;
}

std::int64_t system_seconds() {
  return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

const char* const malformed = "requestState is malformed: it is not a state this server issued";

}  // namespace

StateBinding StateBinding::of(const Message& m) {
  StateBinding binding{m.method, "", nullptr};
  for (const char* field : {"name", "uri"}) {
    if (const auto it = m.params.find(field); it != m.params.end() && it->is_string()) {
      binding.target = it->get<std::string>();
      break;
    }
  }
  if (const auto it = m.params.find("arguments"); it != m.params.end()) binding.arguments = *it;
  return binding;
}

StateSeal::StateSeal() : StateSeal(random_key(), system_seconds) {}

StateSeal::StateSeal(const Key& key, Clock now) : key_(key), now_(std::move(now)) {}

const StateSeal& StateSeal::process() {
  static const StateSeal seal;
  return seal;
}

std::string StateSeal::mac_of(const std::string& payload) const {
  hmac_sha256_ctx ctx;
  hmac_sha256_set_key(&ctx, key_.size(), key_.data());
  hmac_sha256_update(&ctx, payload.size(), reinterpret_cast<const std::uint8_t*>(payload.data()));
  std::array<std::uint8_t, SHA256_DIGEST_SIZE> mac{};
  hmac_sha256_digest(&ctx, mac.size(), mac.data());
  return base64url(mac.data(), mac.size());
}

std::string StateSeal::seal(const StateBinding& binding, const json& answers, const json& tool_state) const {
  const json contents{{"m", binding.method},
                      {"n", binding.target},
                      {"d", digest_of(binding.arguments)},
                      {"e", now_() + lifetime_seconds},
                      {"a", answers},
                      {"s", tool_state}};
  const std::string payload = base64url(canonical(contents));
  return payload + "." + mac_of(payload);
}

std::variant<OpenedState, std::string> StateSeal::open(const StateBinding& binding, const std::string& token) const {
  const auto dot = token.rfind('.');
  if (dot == std::string::npos) return std::string(malformed);
  const std::string payload = token.substr(0, dot);
  const std::string mac = token.substr(dot + 1);
  const std::string expected = mac_of(payload);
  if (mac.size() != expected.size() || memeql_sec(mac.data(), expected.data(), mac.size()) == 0)
    return std::string("requestState failed its integrity check: it was altered, or issued before this server "
                       "restarted; send the request again without requestState and inputResponses");
  std::string text;
  if (!unbase64url(payload, &text)) return std::string(malformed);
  const json contents = json::parse(text, nullptr, false);
  if (!contents.is_object() || !contents.contains("e") || !contents["e"].is_number_integer() ||
      !contents.contains("a") || !contents["a"].is_object())
    return std::string(malformed);
  if (contents["e"].get<std::int64_t>() < now_())
    return "requestState expired (a state lasts " + std::to_string(lifetime_seconds / 60) +
           " minutes); send the request again without requestState and inputResponses";
  if (contents.value("m", "") != binding.method || contents.value("n", "") != binding.target)
    return "requestState was issued for another request (" + contents.value("m", "") + " of \"" +
           contents.value("n", "") + "\"), not this " + binding.method + " of \"" + binding.target + "\"";
  if (contents.value("d", "") != digest_of(binding.arguments))
    return "requestState was issued for other arguments; a retry must repeat the arguments of the request "
           "it answers";
  return OpenedState{contents["a"], contents.value("s", json())};
}

}  // namespace mcpread::protocol
