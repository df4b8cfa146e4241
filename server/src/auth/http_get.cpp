// libcurl (loaded with liboauth2: oauth_api.hpp) rather than liboauth2's HTTP calls, which follow redirects to plain http and
// accept file: URLs, with no limit on the size of what they read.
#include "http_get.hpp"

#ifndef _WIN32

#include "oauth_api.hpp"

#include <mutex>

namespace mcpread::server::auth {

namespace {

constexpr std::size_t kMaxBody = std::size_t{1} << 20;

struct Received {
  std::string& body;
  bool too_big = false;
};

std::size_t append(char* data, std::size_t size, std::size_t count, void* out) {
  auto& received = *static_cast<Received*>(out);
  const std::size_t bytes = size * count;
  if (received.body.size() + bytes > kMaxBody) {
    received.too_big = true;
    return 0;  // makes curl stop with CURLE_WRITE_ERROR
  }
  received.body.append(data, bytes);
  return bytes;
}

// A GET, or a POST of `form` when it is given.
std::optional<HttpGot> transfer(const std::string& url, const std::string* form,
                                const std::vector<std::string>& headers, std::string& why) {
  const OAuthApi* loaded = oauth_api(&why);
  if (loaded == nullptr) return std::nullopt;
  const OAuthApi& api = *loaded;
  static std::once_flag initialised;
  std::call_once(initialised, [&api] { api.curl_global_init(CURL_GLOBAL_DEFAULT); });
  CURL* curl = api.curl_easy_init();
  if (curl == nullptr) {
    why = "libcurl could not start a transfer";
    return std::nullopt;
  }
  HttpGot got;
  Received received{got.body};
  char error[CURL_ERROR_SIZE] = {};
  api.curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
  api.curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  api.curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 0L);
  api.curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT, 5L);
  api.curl_easy_setopt(curl, CURLOPT_TIMEOUT, 10L);
  api.curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, error);
  api.curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, append);
  api.curl_easy_setopt(curl, CURLOPT_WRITEDATA, &received);
  api.curl_easy_setopt(curl, CURLOPT_USERAGENT, "mcp-read");
  curl_slist* list = nullptr;
  bool listed = true;
  for (const auto& header : headers) {
    curl_slist* longer = api.curl_slist_append(list, header.c_str());
    if (longer == nullptr) listed = false;
    else list = longer;
  }
  if (list != nullptr) api.curl_easy_setopt(curl, CURLOPT_HTTPHEADER, list);
  if (form != nullptr) {
    api.curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE, static_cast<long>(form->size()));
    api.curl_easy_setopt(curl, CURLOPT_POSTFIELDS, form->c_str());
  }
  const CURLcode code = listed ? api.curl_easy_perform(curl) : CURLE_OUT_OF_MEMORY;
  if (code == CURLE_OK) api.curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &got.status);
  api.curl_easy_cleanup(curl);
  api.curl_slist_free_all(list);
  if (received.too_big) {
    why = url + " sent more than 1 MiB";
    return std::nullopt;
  }
  if (code != CURLE_OK) {
    why = url + ": " + (error[0] != '\0' ? std::string(error) : std::string(api.curl_easy_strerror(code)));
    return std::nullopt;
  }
  return got;
}

}  // namespace

std::optional<HttpGot> http_get(const std::string& url, std::string& why) { return transfer(url, nullptr, {}, why); }

std::optional<HttpGot> http_post(const std::string& url, const std::string& form,
                                 const std::vector<std::string>& headers, std::string& why) {
  return transfer(url, &form, headers, why);
}

}  // namespace mcpread::server::auth

#endif
