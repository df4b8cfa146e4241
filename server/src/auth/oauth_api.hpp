#pragma once
// liboauth2, jansson and libcurl, loaded when OAuth is turned on (--oauth-issuer) and not before:
// linked, their tree of libraries (OpenSSL, GnuTLS, Kerberos, LDAP, libssh2, ...) took about 6 MiB
// of every server's memory, stdio included. POSIX only: the Windows build has no OAuth.
#ifndef _WIN32

extern "C" {
#include <curl/curl.h>
#include <oauth2/mem.h>
#include <oauth2/oauth2.h>
#include <oauth2/util.h>
}

#include <string>

namespace mcpread::server::auth {

struct OAuthApi {
  decltype(&::oauth2_init) init;
  decltype(&::oauth2_log_sink_create) log_sink_create;
  decltype(&::oauth2_mem_free) mem_free;
  decltype(&::oauth2_cfg_token_verify_add_options) verify_add_options;
  decltype(&::oauth2_cfg_token_verify_free) verify_free;
  decltype(&::oauth2_token_verify) token_verify;
  decltype(&::oauth2_base64url_decode) base64url_decode;
  decltype(&::json_dumps) json_dumps;
  decltype(&::json_delete) json_delete;
  decltype(&::curl_global_init) curl_global_init;
  decltype(&::curl_easy_init) curl_easy_init;
  decltype(&::curl_easy_setopt) curl_easy_setopt;
  decltype(&::curl_easy_perform) curl_easy_perform;
  decltype(&::curl_easy_getinfo) curl_easy_getinfo;
  decltype(&::curl_easy_cleanup) curl_easy_cleanup;
  decltype(&::curl_easy_strerror) curl_easy_strerror;
  decltype(&::curl_slist_append) curl_slist_append;
  decltype(&::curl_slist_free_all) curl_slist_free_all;

  // json_decref, an inline function of jansson.h that would call json_delete by name.
  void json_release(json_t* json) const {
    if (json != nullptr && json->refcount != static_cast<size_t>(-1) &&
        __atomic_sub_fetch(&json->refcount, 1, __ATOMIC_RELEASE) == 0)
      json_delete(json);
  }
};

// The functions, loaded on the first call; nullptr with `error` set ("OAuth (--oauth-issuer) needs
// liboauth2, jansson and libcurl (Debian packages ...): <why>") when a library or a function is
// missing.
const OAuthApi* oauth_api(std::string* error);

}  // namespace mcpread::server::auth

#endif
