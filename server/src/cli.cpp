#include "mcpread/server/cli.hpp"

#include "mcpread/readers/registry.hpp"

#include "cli_checks.hpp"
#include "resource_metadata.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <optional>
#include <vector>
#include <string_view>

namespace mcpread::server {
namespace {

// One option: its name, how its value is checked and stored, and its help line. Options with no
// value_name are switches.
struct Option {
  std::string_view name;
  std::string_view value_name;
  std::string_view help;
  std::uint64_t min = 0;
  std::uint64_t max = UINT64_MAX;
  void (*set_count)(Config&, std::uint64_t) = nullptr;
  std::uint64_t (*get_count)(const Config&) = nullptr;
  bool (*set_text)(Config&, std::string_view) = nullptr;
  const readers::ReaderOption* reader = nullptr;  // a reader's limit, kept in Config::limits
};

constexpr auto log_levels = std::to_array<std::string_view>({"trace", "debug", "info", "warn",
                                                        "error", "critical", "off"});

#define MCPREAD_COUNT(field)                                                                   \
  [](Config& c, std::uint64_t v) { c.field = static_cast<decltype(c.field)>(v); },              \
      [](const Config& c) { return static_cast<std::uint64_t>(c.field); }, nullptr

const auto server_options = std::to_array<Option>({
    {"--host-profile", "NAME", "shape answers for this host (generic, claude-code, gemini-cli, codex, "
     "ai-sdk, or one from --host-profiles); auto: by the name the client gives", 0, 0, nullptr, nullptr,
     [](Config& c, std::string_view v) {
       c.host_profile = v;
       return !v.empty();
     }},
    {"--host-profiles", "FILE", "a JSON file of host profiles that add to or replace the built-in "
     "ones (same layout)", 0, 0, nullptr, nullptr,
     [](Config& c, std::string_view v) {
       c.host_profiles_file = v;
       return !v.empty();
     }},
    {"--stateless-roots", "MODE", "2026-07-28 requests: ignore the client's roots, ask clients that "
     "declare them (roots/list as an input request), or require them (-32021 otherwise)", 0, 0, nullptr,
     nullptr,
     [](Config& c, std::string_view v) {
       if (v == "ignore") c.stateless_roots = protocol::ClientRoots::ignore;
       else if (v == "ask") c.stateless_roots = protocol::ClientRoots::ask;
       else if (v == "require") c.stateless_roots = protocol::ClientRoots::require;
       else return false;
       return true;
     }},
    {"--transport", "NAME", "stdio, or http (Streamable HTTP at /mcp, HTTP+SSE at /sse)", 0, 0, nullptr,
     nullptr,
     [](Config& c, std::string_view v) {
       if (v != "stdio" && v != "http") return false;
       c.transport = v == "http" ? Transport::http : Transport::stdio;
       return true;
     }},
    {"--host", "ADDRESS", "address to listen on with --transport http (default: 127.0.0.1)", 0, 0,
     nullptr, nullptr,
     [](Config& c, std::string_view v) {
       if (v.empty()) return false;
       c.http.host = v;
       return true;
     }},
    {"--port", "N", "port to listen on (0: any free port; the URL is logged)", 0, 65535,
     MCPREAD_COUNT(http.port)},
    {"--allow-origin", "ORIGIN", "also accept requests from this browser Origin (repeatable, or "
     "comma-separated; localhost origins are always accepted)", 0, 0, nullptr, nullptr,
     [](Config& c, std::string_view v) {
       while (!v.empty()) {
         const auto comma = v.find(',');
         std::string_view one = v.substr(0, comma);
         while (!one.empty() && one.front() == ' ') one.remove_prefix(1);
         while (!one.empty() && (one.back() == ' ' || one.back() == '/')) one.remove_suffix(1);
         if (!one.empty()) c.http.allowed_origins.emplace_back(one);
         v = comma == std::string_view::npos ? std::string_view() : v.substr(comma + 1);
       }
       return !c.http.allowed_origins.empty();
     }},
    {"--auth-token", "TOKEN", "require \"Authorization: Bearer TOKEN\" on HTTP requests (prefer "
     "the environment variable: arguments are visible to other users)", 0, 0, nullptr, nullptr,
     [](Config& c, std::string_view v) {
       c.http.auth_token = v;
       return !v.empty();
     }},
    {"--oauth-issuer", "URL", "act as an OAuth 2.1 resource server: accept JWT access tokens issued by this "
     "authorization server (repeatable, or comma-separated; https, or http on loopback); excludes "
     "--auth-token", 0, 0, nullptr, nullptr,
     [](Config& c, std::string_view v) {
       while (!v.empty()) {
         const auto comma = v.find(',');
         std::string_view one = v.substr(0, comma);
         while (!one.empty() && one.front() == ' ') one.remove_prefix(1);
         while (!one.empty() && one.back() == ' ') one.remove_suffix(1);
         const auto issuer = auth::checked_issuer(one);
         if (!issuer) return false;
         c.http.oauth_issuers.push_back(*issuer);
         v = comma == std::string_view::npos ? std::string_view() : v.substr(comma + 1);
       }
       return !c.http.oauth_issuers.empty();
     }},
    {"--oauth-resource", "URL", "with --oauth-issuer: this server's canonical URI, which tokens must name "
     "in aud (default: http://HOST:PORT/mcp; give the public URL behind a proxy)", 0, 0, nullptr, nullptr,
     [](Config& c, std::string_view v) {
       const auto uri = auth::canonical_resource_uri(v);
       if (uri) c.http.oauth_resource = *uri;
       return uri.has_value();
     }},
    {"--oauth-scope", "SCOPE", "with --oauth-issuer: the scope a token must carry", 0, 0, nullptr, nullptr,
     [](Config& c, std::string_view v) {
       if (v.empty()) return false;
       for (const char ch : v)
         if (ch <= ' ' || ch == '"' || ch == '\\' || static_cast<unsigned char>(ch) >= 0x7f) return false;
       c.http.oauth_scope = v;
       return true;
     }},
    {"--oauth-roots", "FILE", "with --oauth-issuer: a JSON policy giving each identity its roots (by sub, "
     "group, email domain), within the ROOTs; reloaded on SIGHUP", 0, 0, nullptr, nullptr,
     [](Config& c, std::string_view v) {
       c.http.oauth_roots_file = v;
       return !v.empty();
     }},
    {"--oauth-client-id", "ID", "with --oauth-issuer: this server's client id at the authorization server, "
     "to introspect opaque access tokens (RFC 7662) at its introspection_endpoint; the client secret is "
     "read from MCP_READ_OAUTH_CLIENT_SECRET only", 0, 0, nullptr, nullptr,
     [](Config& c, std::string_view v) {
       c.http.oauth_client_id = v;
       return !v.empty();
     }},
    {"--oauth-introspection-cache", "SECONDS", "how long an introspected token is taken as active without asking "
     "again (at most until it expires): a token revoked at the authorization server is refused after at most "
     "this long (0: every call asks)", 0, 86400, MCPREAD_COUNT(http.oauth_introspection_cache_s)},
    {"--oauth-introspect-all", "", "with --oauth-client-id: introspect JWT access tokens too, so that their "
     "revocation is seen", 0, 1, MCPREAD_COUNT(http.oauth_introspect_all)},
    {"--metrics-token", "TOKEN", "the bearer token /healthz, /readyz and /metrics take instead of "
     "--auth-token (so that a scraper cannot call tools)", 0, 0, nullptr, nullptr,
     [](Config& c, std::string_view v) {
       c.http.metrics_token = v;
       return !v.empty();
     }},
    {"--max-body-bytes", "N", "largest HTTP request body accepted", 1024, UINT64_MAX,
     MCPREAD_COUNT(http.max_body_bytes)},
    {"--max-sessions", "N", "HTTP sessions open at once", 1, 1000000, MCPREAD_COUNT(http.max_sessions)},
    {"--idle-timeout-s", "N", "seconds an HTTP connection may take to send a request", 1, 86400,
     MCPREAD_COUNT(http.idle_timeout_s)},
    {"--session-timeout-s", "N", "seconds an unused HTTP session lives", 1, 604800,
     MCPREAD_COUNT(http.session_timeout_s)},
    {"--drain-seconds", "N", "on SIGTERM, seconds HTTP calls in flight may take to finish while new "
     "requests are refused (503) and /readyz fails; then the server exits", 0, 3600,
     MCPREAD_COUNT(http.drain_seconds)},
    {"--replica-id", "ID", "behind a load balancer: session and task ids start with \"ID.\", a key to route "
     "a session or a task to this replica (letters, digits and '-', at most 32)", 0, 0, nullptr, nullptr,
     [](Config& c, std::string_view v) {
       if (v.empty() || v.size() > 32) return false;
       for (const char ch : v)
         if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '-') return false;
       c.http.replica_id = v;
       return true;
     }},
    {"--log-level", "LEVEL", "stderr log level: trace, debug, info, warn, error, critical, off", 0, 0,
     nullptr, nullptr,
     [](Config& c, std::string_view v) {
       if (std::find(log_levels.begin(), log_levels.end(), v) == log_levels.end()) return false;
       c.log_level = v;
       return true;
     }},
    {"--log-format", "FORMAT", "stderr log lines: text, or json (one object per line, for log "
     "shippers)", 0, 0, nullptr, nullptr,
     [](Config& c, std::string_view v) {
       if (v != "text" && v != "json") return false;
       c.log_json = v == "json";
       return true;
     }},
    {"--max-message-bytes", "N", "largest JSON-RPC message accepted", 1024, UINT64_MAX,
     MCPREAD_COUNT(max_message_bytes)},
    {"--workers", "N", "threads serving tool calls (0: one per core, at least 2)", 0, 256,
     MCPREAD_COUNT(workers)},
    {"--roots-wait-ms", "N", "how long a read waits for the client's roots", 0, 60000,
     MCPREAD_COUNT(roots_wait_ms)},
    {"--task-after-ms", "N", "a longer read becomes a task (2026-07-28 clients with the tasks extension)", 0,
     3600000, MCPREAD_COUNT(task_after_ms)},
    {"--idle-release-ms", "N", "quiet time after which memory the reads took goes back to the system (0: never)", 0,
     3600000, MCPREAD_COUNT(idle_release_ms)},
    {"--ocr", "MODE", "OCR of PDF pages: off, auto (pages without usable text) or always (every page)", 0, 0,
     nullptr, nullptr,
     [](Config& c, std::string_view v) {
       if (v == "off") c.limits.ocr_mode = readers::OcrMode::off;
       else if (v == "auto") c.limits.ocr_mode = readers::OcrMode::automatic;
       else if (v == "always") c.limits.ocr_mode = readers::OcrMode::always;
       else return false;
       return true;
     }},
    {"--ocr-lang", "LANGS", "OCR languages when a call names none, e.g. eng+deu (default: every installed one)",
     0, 0, nullptr, nullptr,
     [](Config& c, std::string_view v) {
       c.limits.ocr_langs = v;
       return !v.empty();
     }},
    {"--max-directory-entries", "N", "entries listed of a directory", 1, UINT64_MAX,
     MCPREAD_COUNT(limits.max_directory_entries)},
    {"--structured-content", "", "also send structuredContent and an outputSchema (some hosts then "
     "drop image blocks)", 0, 1, MCPREAD_COUNT(structured_content)},
});
#undef MCPREAD_COUNT

// The server's options, with the readers' limits (from their registrations) before
// --max-directory-entries, where the help has always listed them.
const std::vector<Option>& options() {
  static const std::vector<Option> all = [] {
    std::vector<Option> out;
    for (const auto& o : server_options) {
      if (o.name == "--max-directory-entries")
        for (const auto& r : readers::reader_registry().readers())
          for (const auto& ro : r.options)
            out.push_back(Option{ro.name, "N", ro.help, ro.min, ro.max, nullptr, nullptr, nullptr, &ro});
      out.push_back(o);
    }
    return out;
  }();
  return all;
}

const Option* find_option(std::string_view name) {
  for (const auto& o : options())
    if (o.name == name) return &o;
  return nullptr;
}

// "--image-max-edge" -> "MCP_READ_IMAGE_MAX_EDGE"
std::string env_name(std::string_view option) {
  std::string name = "MCP_READ_";
  for (char ch : option.substr(2)) name.push_back(ch == '-' ? '_' : static_cast<char>(ch - (ch >= 'a' && ch <= 'z' ? 32 : 0)));
  return name;
}

// Applies one value; returns the problem, or empty.
std::string apply(const Option& o, std::string_view value, Config& c) {
  if (o.value_name.empty()) {  // a switch; from the environment it takes a yes/no value
    if (value == "1" || value == "true" || value == "yes" || value == "on") {
      o.set_count(c, 1);
    } else if (value == "0" || value == "false" || value == "no" || value == "off" || value.empty()) {
      o.set_count(c, 0);
    } else {
      return std::string(o.name) + " takes 1/true/yes/on or 0/false/no/off, got '" + std::string(value) + "'";
    }
    return {};
  }
  if (o.set_text) {
    if (!o.set_text(c, value)) return "unknown value '" + std::string(value) + "' for " + std::string(o.name);
    return {};
  }
  std::uint64_t n = 0;
  const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
  if (value.empty() || ec != std::errc{} || end != value.data() + value.size())
    return "option " + std::string(o.name) + " needs a whole number, got '" + std::string(value) + "'";
  if (n < o.min || n > o.max)
    return "value " + std::string(value) + " is out of range for " + std::string(o.name) + " (" +
           std::to_string(o.min) + " to " + (o.max == UINT64_MAX ? std::string("any") : std::to_string(o.max)) + ")";
  if (o.reader != nullptr) o.reader->set(c.limits, n);
  else o.set_count(c, n);
  return {};
}

// `text` broken into lines of at most `width` characters at spaces.
std::string wrapped(std::string_view text, std::size_t width) {
  std::string out, line;
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t space = std::min(text.find(' ', at), text.size());
    const std::string_view word = text.substr(at, space - at);
    if (!line.empty() && line.size() + 1 + word.size() > width) {
      out += line + "\n";
      line.clear();
    }
    line += (line.empty() ? "" : " ") + std::string(word);
    at = space + 1;
  }
  return out + line + "\n";
}

// The introspection settings checked, and the client secret read from the environment; the
// problem, or empty.
std::string introspection_problem(Config& c, const Environment& getenv) {
  auto& http = c.http;
  if (http.oauth_client_id.empty()) {
    if (http.oauth_introspect_all) return "--oauth-introspect-all needs --oauth-client-id";
    return {};
  }
  if (http.oauth_issuers.empty())
    return "--oauth-client-id needs --oauth-issuer (the authorization server that introspects the tokens)";
  // An opaque token names no issuer, and it must be shown to no other authorization server.
  if (http.oauth_issuers.size() > 1)
    return "--oauth-client-id: give one --oauth-issuer (opaque tokens are introspected at one authorization "
           "server)";
  const char* secret = getenv("MCP_READ_OAUTH_CLIENT_SECRET");
  if (secret == nullptr || *secret == '\0')
    return "--oauth-client-id needs the client's secret in the environment variable MCP_READ_OAUTH_CLIENT_SECRET";
  http.oauth_client_secret = secret;
  return {};
}

}  // namespace

std::string usage() {
  // The formats come from the registered readers, as the tool's description does.
  std::string text = "Usage: mcp-read [OPTIONS] [ROOT...]\n\n" +
                     wrapped("An MCP server whose `read` tool gives a model any file the way it needs it: " +
                                 readers::reader_nouns() +
                                 " and directory listings; text as numbered lines in any charset, images sized "
                                 "to what models accept. Speaks MCP over stdio, or over HTTP with --transport "
                                 "http. Reads are confined to the ROOT directories (default: the current "
                                 "directory); a client's MCP roots narrow them.",
                             100) +
                     "\nOptions (each can also be set with the environment variable shown; the command line wins):\n";
  const Config defaults;
  for (const auto& o : options()) {
    std::string left = "  " + std::string(o.name) + (o.value_name.empty() ? "" : " " + std::string(o.value_name));
    text += left + std::string(left.size() < 28 ? 28 - left.size() : 1, ' ') + std::string(o.help);
    if (o.reader != nullptr) text += " (default: " + std::to_string(o.reader->get(defaults.limits)) + ")";
    else if (o.get_count && !o.value_name.empty())
      text += " (default: " + std::to_string(o.get_count(defaults)) + ")";
    if (o.name == "--log-level") text += " (default: " + defaults.log_level + ")";
    if (o.name == "--log-format") text += " (default: text)";
    if (o.name == "--transport") text += " (default: stdio)";
    if (o.name == "--stateless-roots") text += " (default: ignore)";
    if (o.name == "--host-profile") text += " (default: auto)";
    if (o.name == "--ocr") text += " (default: auto)";
    if (o.name == "--oauth-scope") text += " (default: " + defaults.http.oauth_scope + ")";
    text += "\n" + std::string(28, ' ') + "[" + env_name(o.name) + "]\n";
  }
  text += "  -h, --help                show this help\n  -V, --version             show the version\n";
  return text;
}

CliOutcome parse_cli(const std::vector<std::string>& args, const Environment& getenv) {
  CliOutcome out;
  Config& c = out.config;
  auto fail = [&out](std::string message) {
    out.action = CliOutcome::Action::fail;
    out.text = "mcp-read: " + std::move(message) + "\nTry 'mcp-read --help'.\n";
    return out;
  };
  // An option given on the command line replaces its environment variable, even one that can be
  // repeated (--oauth-issuer): the variable is then not read at all.
  std::vector<std::string_view> on_command_line;
  for (std::size_t i = 0; i < args.size() && args[i] != "--"; ++i) {
    if (args[i].size() < 2 || args[i][0] != '-') continue;
    const auto eq = args[i].find('=');
    if (const Option* o = find_option(std::string_view(args[i]).substr(0, eq)); o != nullptr) {
      on_command_line.push_back(o->name);
      if (!o->value_name.empty() && eq == std::string::npos) ++i;  // its value
    }
  }
  for (const auto& o : options()) {
    if (std::find(on_command_line.begin(), on_command_line.end(), o.name) != on_command_line.end()) continue;
    const std::string name = env_name(o.name);
    if (const char* value = getenv(name.c_str()); value != nullptr) {
      if (auto problem = apply(o, value, c); !problem.empty()) return fail(name + ": " + problem);
    }
  }
  bool options_done = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    std::string arg = args[i];
    if (options_done || arg.empty() || arg[0] != '-' || arg == "-") {
      c.roots.push_back(arg);
      continue;
    }
    if (arg == "--") {
      options_done = true;
      continue;
    }
    if (arg == "-h" || arg == "--help") {
      out.action = CliOutcome::Action::print_and_exit;
      out.text = usage();
      return out;
    }
    if (arg == "-V" || arg == "--version") {
      out.action = CliOutcome::Action::print_and_exit;
      out.text = std::string("mcp-read ") + MCPREAD_VERSION + "\n";
      return out;
    }
    const auto eq = arg.find('=');
    const Option* o = find_option(std::string_view(arg).substr(0, eq));
    if (o == nullptr) return fail("unknown option " + arg.substr(0, eq));
    std::string value;
    if (o->value_name.empty()) {
      value = eq == std::string::npos ? "1" : arg.substr(eq + 1);
    } else if (eq != std::string::npos) {
      value = arg.substr(eq + 1);
    } else if (i + 1 < args.size()) {
      value = args[++i];
    } else {
      return fail("option " + arg + " needs a value");
    }
    if (auto problem = apply(*o, value, c); !problem.empty()) return fail(problem);
  }
  if (auto problem = oauth_conflicts(c.http); !problem.empty()) return fail(problem);
  if (auto problem = introspection_problem(c, getenv); !problem.empty()) return fail(std::move(problem));
  if (!c.host_profiles_file.empty()) {
    auto loaded = HostProfiles::load(c.host_profiles_file);
    if (auto* problem = std::get_if<std::string>(&loaded)) return fail("--host-profiles: " + *problem);
    c.host_profiles = std::get<HostProfiles>(std::move(loaded));
  }
  if (!c.host_profiles.force(c.host_profile)) {
    std::string names;
    for (const auto& p : c.host_profiles.all()) names += (names.empty() ? "" : ", ") + p.name;
    return fail("unknown host profile '" + c.host_profile + "' for --host-profile (auto, " + names + ")");
  }
  return out;
}

}  // namespace mcpread::server
