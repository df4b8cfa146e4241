// libcurl directly rather than liboauth2's HTTP calls, which follow redirects to plain http and
// accept file: URLs, with no limit on the size of what they read.
#include "http_get.hpp"

#ifndef _WIN32

#include <curl/curl.h>

#include <mutex>

namespace mcpread::server::auth {

namespace {

constexpr std::size_t kMaxBody = std::size_t{1} << 20;

std::size_t append(char* data, std::size_t size, std::size_t count, void* out) {
  auto& body = *static_cast<std::string*>(out);
  const std::size_t bytes = size * count;
  if (body.size() + bytes > kMaxBody) return 0;  // makes curl stop with CURLE_WRITE_ERROR
  body.append(data, bytes);
  return bytes;
}

}  // namespace

std::optional<HttpGot> http_get(const std::string& url, std::string& why) {
  static std::once_flag initialised;
  std::call_once(initialised, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
  CURL* curl = curl_easy_init();
  if (curl == nullptr) {
    why = "libcurl could not start a transfer";
    return std::nullopt;
  }
  HttpGot got;
  char error[CURL_ERROR_SIZE] = {};
  curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 0L);
  curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT, 5L);
  curl_easy_setopt(curl, CURLOPT_TIMEOUT, 10L);
  curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, error);
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, append);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &got.body);
  curl_easy_setopt(curl, CURLOPT_USERAGENT, "mcp-read");
  const CURLcode code = curl_easy_perform(curl);
  if (code == CURLE_OK) curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &got.status);
  curl_easy_cleanup(curl);
  if (code == CURLE_WRITE_ERROR && got.body.size() + CURL_MAX_WRITE_SIZE > kMaxBody) {
    why = url + " sent more than 1 MiB";
    return std::nullopt;
  }
  if (code != CURLE_OK) {
    why = url + ": " + (error[0] != '\0' ? std::string(error) : std::string(curl_easy_strerror(code)));
    return std::nullopt;
  }
  return got;
}

}  // namespace mcpread::server::auth

#endif
