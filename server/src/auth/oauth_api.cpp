#include "oauth_api.hpp"

#ifndef _WIN32

#include <dlfcn.h>

#include <cstring>

namespace mcpread::server::auth {

namespace {

struct Loaded {
  OAuthApi api{};
  std::string error;  // empty when every function was found
};

// Opens the first soname that loads; the handle is kept for the life of the process.
void* open_library(const char* soname, const char* package, std::string& error) {
  void* handle = ::dlopen(soname, RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* why = ::dlerror();
    error = std::string("OAuth (--oauth-issuer) needs ") + soname + " (Debian package " + package +
            "): " + (why != nullptr ? why : "it cannot be loaded");
  }
  return handle;
}

template <class Fn>
bool bind(void* handle, Fn* slot, const char* name, const char* soname, std::string& error) {
  void* symbol = ::dlsym(handle, name);
  if (symbol == nullptr) {
    error = std::string("OAuth (--oauth-issuer): ") + soname + " has no " + name;
    return false;
  }
  static_assert(sizeof(Fn) == sizeof(void*));
  std::memcpy(slot, &symbol, sizeof symbol);  // object pointer to function pointer, without a cast
  return true;
}

Loaded load() {
  Loaded out;
  OAuthApi& a = out.api;
  std::string& e = out.error;
  // Bullseye's liboauth2 calls shm_open without naming librt, where glibc 2.31 keeps it: librt is
  // made global first (on later glibc it is an empty stub, and its absence is no matter).
  ::dlopen("librt.so.1", RTLD_NOW | RTLD_GLOBAL);
  void* oauth2 = open_library("liboauth2.so.0", "liboauth2-0", e);
  if (oauth2 == nullptr) return out;
  void* jansson = open_library("libjansson.so.4", "libjansson4", e);
  if (jansson == nullptr) return out;
  void* curl = open_library("libcurl.so.4", "libcurl4", e);
  if (curl == nullptr) return out;
  const char* o = "liboauth2.so.0";
  const char* j = "libjansson.so.4";
  const char* c = "libcurl.so.4";
  (void)(bind(oauth2, &a.init, "oauth2_init", o, e) && bind(oauth2, &a.log_sink_create, "oauth2_log_sink_create", o, e) &&
         bind(oauth2, &a.mem_free, "oauth2_mem_free", o, e) &&
         bind(oauth2, &a.verify_add_options, "oauth2_cfg_token_verify_add_options", o, e) &&
         bind(oauth2, &a.verify_free, "oauth2_cfg_token_verify_free", o, e) &&
         bind(oauth2, &a.token_verify, "oauth2_token_verify", o, e) &&
         bind(oauth2, &a.base64url_decode, "oauth2_base64url_decode", o, e) &&
         bind(jansson, &a.json_dumps, "json_dumps", j, e) && bind(jansson, &a.json_delete, "json_delete", j, e) &&
         bind(curl, &a.curl_global_init, "curl_global_init", c, e) &&
         bind(curl, &a.curl_easy_init, "curl_easy_init", c, e) &&
         bind(curl, &a.curl_easy_setopt, "curl_easy_setopt", c, e) &&
         bind(curl, &a.curl_easy_perform, "curl_easy_perform", c, e) &&
         bind(curl, &a.curl_easy_getinfo, "curl_easy_getinfo", c, e) &&
         bind(curl, &a.curl_easy_cleanup, "curl_easy_cleanup", c, e) &&
         bind(curl, &a.curl_easy_strerror, "curl_easy_strerror", c, e));
  return out;
}

}  // namespace

const OAuthApi* oauth_api(std::string* error) {
  static const Loaded loaded = load();
  if (!loaded.error.empty()) {
    if (error != nullptr) *error = loaded.error;
    return nullptr;
  }
  return &loaded.api;
}

}  // namespace mcpread::server::auth

#endif
