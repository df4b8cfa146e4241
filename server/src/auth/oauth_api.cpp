#include "oauth_api.hpp"

#ifndef _WIN32

#include <dlfcn.h>

#include "mcpread/common/lazy_library.hpp"

namespace mcpread::server::auth {

const OAuthApi* oauth_api(std::string* error) {
  // Bullseye's liboauth2 calls shm_open without naming librt, where glibc 2.31 keeps it: librt is
  // made global first (on later glibc it is an empty stub, and its absence is no matter).
  static const bool librt_global = ::dlopen("librt.so.1", RTLD_NOW | RTLD_GLOBAL) != nullptr;
  (void)librt_global;
  static const LazyLibrary<OAuthApi> lib(
      {.needs = "OAuth (--oauth-issuer) needs liboauth2, jansson and libcurl (Debian packages liboauth2-0, "
                "libjansson4 and libcurl4)",
       .candidates = {"liboauth2.so.0"}},
      [](SymbolBinder& o, OAuthApi& a) {
        if (!(o(&a.init, "oauth2_init") && o(&a.log_sink_create, "oauth2_log_sink_create") &&
              o(&a.mem_free, "oauth2_mem_free") && o(&a.verify_add_options, "oauth2_cfg_token_verify_add_options") &&
              o(&a.verify_free, "oauth2_cfg_token_verify_free") && o(&a.token_verify, "oauth2_token_verify") &&
              o(&a.base64url_decode, "oauth2_base64url_decode")))
          return false;
        std::optional<SymbolBinder> j = o.also("libjansson.so.4");
        if (!j || !((*j)(&a.json_dumps, "json_dumps") && (*j)(&a.json_delete, "json_delete"))) return false;
        std::optional<SymbolBinder> c = o.also("libcurl.so.4");
        return c && (*c)(&a.curl_global_init, "curl_global_init") && (*c)(&a.curl_easy_init, "curl_easy_init") &&
               (*c)(&a.curl_easy_setopt, "curl_easy_setopt") && (*c)(&a.curl_easy_perform, "curl_easy_perform") &&
               (*c)(&a.curl_easy_getinfo, "curl_easy_getinfo") && (*c)(&a.curl_easy_cleanup, "curl_easy_cleanup") &&
               (*c)(&a.curl_easy_strerror, "curl_easy_strerror") &&
               (*c)(&a.curl_slist_append, "curl_slist_append") && (*c)(&a.curl_slist_free_all, "curl_slist_free_all");
      });
  return lib.get(error);
}

}  // namespace mcpread::server::auth

#endif
