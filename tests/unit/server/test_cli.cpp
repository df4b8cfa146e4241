#include "mcpread/server/cli.hpp"

#include <doctest/doctest.h>

#include <map>

using namespace mcpread::server;
using Action = CliOutcome::Action;

namespace {
CliOutcome parse(const std::vector<std::string>& args, std::map<std::string, std::string> env = {}) {
  return parse_cli(args, [env = std::move(env)](const char* name) -> const char* {
    static thread_local std::string value;
    const auto it = env.find(name);
    if (it == env.end()) return nullptr;
    value = it->second;
    return value.c_str();
  });
}
}  // namespace

TEST_CASE("command line") {
  SUBCASE("roots and options, both option forms") {
    const auto r = parse({"/a", "--log-level", "debug", "--default-limit=50", "/b", "--structured-content"});
    CHECK(r.action == Action::run);
    CHECK(r.config.roots == std::vector<std::string>{"/a", "/b"});
    CHECK(r.config.log_level == "debug");
    CHECK(r.config.limits.text.limit == 50);
    CHECK(r.config.structured_content);
  }
  SUBCASE("defaults") {
    const auto r = parse({});
    CHECK(r.config.roots.empty());
    CHECK(r.config.max_message_bytes == 16u << 20);
    CHECK(r.config.limits.text.limit == 2000);
    CHECK(r.config.limits.text.max_line_chars == 2000);
    CHECK(r.config.limits.text.max_output_bytes == 100 * 1024);
    CHECK(r.config.limits.image.max_edge == 2000);
    CHECK(r.config.limits.image.max_base64_bytes == 5242880);
    CHECK(r.config.limits.image.max_input_bytes == 20u << 20);
    CHECK(r.config.limits.audio_max_bytes == 20u << 20);
    CHECK_FALSE(r.config.structured_content);
  }
  SUBCASE("image and audio limits") {
    const auto r = parse({"--image-max-edge", "1568", "--image-max-bytes=1000000", "--audio-max-bytes", "5000"});
    CHECK(r.config.limits.image.max_edge == 1568);
    CHECK(r.config.limits.image.max_base64_bytes == 1000000);
    CHECK(r.config.limits.audio_max_bytes == 5000);
  }
  SUBCASE("-- ends the options") {
    const auto r = parse({"--", "--odd-dir-name"});
    CHECK(r.config.roots == std::vector<std::string>{"--odd-dir-name"});
  }
  SUBCASE("help lists every option with its variable") {
    const auto r = parse({"--help"});
    CHECK(r.action == Action::print_and_exit);
    CHECK(r.text.find("--image-max-edge N") != std::string::npos);
    CHECK(r.text.find("[MCP_READ_IMAGE_MAX_EDGE]") != std::string::npos);
    CHECK(r.text.find("(default: 2000)") != std::string::npos);
    CHECK(parse({"-V"}).text == std::string("mcp-read ") + MCPREAD_VERSION + "\n");
  }
  SUBCASE("errors name the problem") {
    CHECK(parse({"--nope"}).text == "mcp-read: unknown option --nope\nTry 'mcp-read --help'.\n");
    CHECK(parse({"--workers"}).text == "mcp-read: option --workers needs a value\nTry 'mcp-read --help'.\n");
    CHECK(parse({"--workers", "x"}).text ==
          "mcp-read: option --workers needs a whole number, got 'x'\nTry 'mcp-read --help'.\n");
    CHECK(parse({"--image-max-edge", "9000"}).text ==
          "mcp-read: value 9000 is out of range for --image-max-edge (16 to 8000)\nTry 'mcp-read --help'.\n");
    CHECK(parse({"--log-level", "loud"}).text ==
          "mcp-read: unknown value 'loud' for --log-level\nTry 'mcp-read --help'.\n");
  }
}

TEST_CASE("environment variables") {
  SUBCASE("set options, and the command line wins") {
    const auto r = parse({"--image-max-edge", "1000"},
                         {{"MCP_READ_IMAGE_MAX_EDGE", "1568"}, {"MCP_READ_LOG_LEVEL", "warn"},
                          {"MCP_READ_STRUCTURED_CONTENT", "yes"}});
    CHECK(r.config.limits.image.max_edge == 1000);
    CHECK(r.config.log_level == "warn");
    CHECK(r.config.structured_content);
  }
  SUBCASE("a bad value names the variable") {
    CHECK(parse({}, {{"MCP_READ_WORKERS", "many"}}).text ==
          "mcp-read: MCP_READ_WORKERS: option --workers needs a whole number, got 'many'\nTry 'mcp-read --help'.\n");
    CHECK(parse({}, {{"MCP_READ_STRUCTURED_CONTENT", "maybe"}}).action == Action::fail);
  }
}

TEST_CASE("command line: OCR") {
  SUBCASE("auto by default, every installed language") {
    const auto r = parse({});
    CHECK(r.config.limits.ocr_mode == mcpread::readers::OcrMode::automatic);
    CHECK(r.config.limits.ocr_langs.empty());
    CHECK(r.config.limits.ocr_max_pages == 10);
    CHECK(r.config.limits.ocr_dpi == 150);
  }
  SUBCASE("--ocr, --ocr-lang, --ocr-max-pages, --ocr-dpi, and their variables") {
    const auto r = parse({"--ocr", "always", "--ocr-lang=eng+deu", "--ocr-max-pages", "3"}, {{"MCP_READ_OCR_DPI", "300"}});
    CHECK(r.action == Action::run);
    CHECK(r.config.limits.ocr_mode == mcpread::readers::OcrMode::always);
    CHECK(r.config.limits.ocr_langs == "eng+deu");
    CHECK(r.config.limits.ocr_max_pages == 3);
    CHECK(r.config.limits.ocr_dpi == 300);
    CHECK(parse({}, {{"MCP_READ_OCR", "off"}}).config.limits.ocr_mode == mcpread::readers::OcrMode::off);
  }
  SUBCASE("a bad mode is refused") {
    CHECK(parse({"--ocr", "sometimes"}).text == "mcp-read: unknown value 'sometimes' for --ocr\nTry 'mcp-read --help'.\n");
  }
}

TEST_CASE("command line: OAuth") {
  SUBCASE("issuers, resource and scope") {
    const auto r = parse({"--oauth-issuer", "https://as.example, http://127.0.0.1:9000/realm", "--oauth-issuer",
                          "https://b.example", "--oauth-resource", "HTTPS://Files.Example.com/mcp/"});
    REQUIRE(r.action == Action::run);
    CHECK(r.config.http.oauth_issuers ==
          std::vector<std::string>{"https://as.example", "http://127.0.0.1:9000/realm", "https://b.example"});
    CHECK(r.config.http.oauth_resource == "https://files.example.com/mcp");
    CHECK(r.config.http.oauth_scope == "files:read");
    CHECK(parse({"--oauth-issuer", "https://as.example", "--oauth-scope", "mcp:files"}).config.http.oauth_scope ==
          "mcp:files");
  }
  SUBCASE("issuers on the command line replace the environment's; without them, the environment's") {
    const std::map<std::string, std::string> env{{"MCP_READ_OAUTH_ISSUER", "https://env.example"}};
    CHECK(parse({"--oauth-issuer=https://cli.example"}, env).config.http.oauth_issuers ==
          std::vector<std::string>{"https://cli.example"});
    CHECK(parse({"--oauth-issuer", "https://a.example", "--oauth-issuer", "https://b.example"}, env)
              .config.http.oauth_issuers == std::vector<std::string>{"https://a.example", "https://b.example"});
    CHECK(parse({}, env).config.http.oauth_issuers == std::vector<std::string>{"https://env.example"});
    // After "--" an argument is a root, not an option.
    const auto r = parse({"--", "--oauth-issuer"}, env);
    CHECK(r.config.http.oauth_issuers == std::vector<std::string>{"https://env.example"});
    CHECK(r.config.roots == std::vector<std::string>{"--oauth-issuer"});
  }
  SUBCASE("refused values") {
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{"--oauth-issuer", "http://as.example"},  // http off loopback
          {"--oauth-issuer", "https://as.example?x=1"},
          {"--oauth-issuer", "as.example"},
          {"--oauth-issuer", "https://as.example", "--oauth-resource", "https://x.example/mcp#frag"},
          {"--oauth-issuer", "https://as.example", "--oauth-scope", "a\"b"}}) {
      const auto r = parse(args);
      CHECK(r.action == Action::fail);
      CHECK(r.text.find("unknown value") != std::string::npos);
    }
  }
  SUBCASE("OAuth and the shared token exclude each other") {
    const auto r = parse({"--oauth-issuer", "https://as.example"}, {{"MCP_READ_AUTH_TOKEN", "s3cret"}});
    CHECK(r.action == Action::fail);
    CHECK(r.text.rfind("mcp-read: --oauth-issuer and --auth-token exclude each other", 0) == 0);
  }
  SUBCASE("a wildcard --host names no resource: --oauth-resource is needed") {
    const auto r = parse({"--host", "0.0.0.0", "--oauth-issuer", "https://as.example"});
    CHECK(r.action == Action::fail);
    CHECK(r.text.find("--host 0.0.0.0 names no URL for tokens to be issued for; give the URL clients reach this "
                      "server at with --oauth-resource") != std::string::npos);
    CHECK(parse({"--host", "0.0.0.0", "--oauth-issuer", "https://as.example", "--oauth-resource",
                 "https://files.example.com/mcp"})
              .action == Action::run);
  }
  SUBCASE("--oauth-resource alone") {
    const auto r = parse({"--oauth-resource", "https://x.example/mcp"});
    CHECK(r.action == Action::fail);
    CHECK(r.text.rfind("mcp-read: --oauth-resource needs --oauth-issuer", 0) == 0);
  }
}

TEST_CASE("command line: OAuth introspection") {
  const std::map<std::string, std::string> secret{{"MCP_READ_OAUTH_CLIENT_SECRET", "s3cret"}};
  SUBCASE("the client id by option, the secret from the environment; the cache and introspect-all") {
    auto r = parse({"--oauth-issuer", "https://as.example", "--oauth-client-id", "mcp-read"}, secret);
    REQUIRE(r.action == Action::run);
    CHECK(r.config.http.oauth_client_id == "mcp-read");
    CHECK(r.config.http.oauth_client_secret == "s3cret");
    CHECK(r.config.http.oauth_introspection_cache_s == 300);
    CHECK_FALSE(r.config.http.oauth_introspect_all);
    r = parse({"--oauth-issuer", "https://as.example", "--oauth-client-id", "mcp-read", "--oauth-introspection-cache",
               "0", "--oauth-introspect-all"},
              secret);
    REQUIRE(r.action == Action::run);
    CHECK(r.config.http.oauth_introspection_cache_s == 0);
    CHECK(r.config.http.oauth_introspect_all);
    // Without a client id the secret is not read.
    CHECK(parse({"--oauth-issuer", "https://as.example"}, secret).config.http.oauth_client_secret.empty());
  }
  auto fails = [](const std::vector<std::string>& args, const std::map<std::string, std::string>& env,
                  const std::string& text) {
    CAPTURE(text);
    const auto r = parse(args, env);
    CHECK(r.action == Action::fail);
    CHECK(r.text == "mcp-read: " + text + "\nTry 'mcp-read --help'.\n");
  };
  SUBCASE("refused") {
    fails({"--oauth-issuer", "https://as.example", "--oauth-client-id", "mcp-read"}, {},
          "--oauth-client-id needs the client's secret in the environment variable MCP_READ_OAUTH_CLIENT_SECRET");
    fails({"--oauth-issuer", "https://as.example", "--oauth-client-id", "mcp-read"},
          {{"MCP_READ_OAUTH_CLIENT_SECRET", ""}},
          "--oauth-client-id needs the client's secret in the environment variable MCP_READ_OAUTH_CLIENT_SECRET");
    fails({"--oauth-client-id", "mcp-read"}, secret,
          "--oauth-client-id needs --oauth-issuer (the authorization server that introspects the tokens)");
    fails({"--oauth-issuer", "https://a.example,https://b.example", "--oauth-client-id", "mcp-read"}, secret,
          "--oauth-client-id: give one --oauth-issuer (opaque tokens are introspected at one authorization server)");
    fails({"--oauth-issuer", "https://as.example", "--oauth-introspect-all"}, secret,
          "--oauth-introspect-all needs --oauth-client-id");
    fails({"--oauth-issuer", "https://as.example", "--oauth-client-id", "mcp-read", "--oauth-introspection-cache",
           "86401"},
          secret, "value 86401 is out of range for --oauth-introspection-cache (0 to 86400)");
    // The secret is no option: on the command line it is an unknown one.
    fails({"--oauth-client-secret", "s3cret"}, {}, "unknown option --oauth-client-secret");
  }
  SUBCASE("the help names the options and where the secret comes from") {
    const std::string help = mcpread::server::usage();
    CHECK(help.find("--oauth-client-id ID") != std::string::npos);
    CHECK(help.find("MCP_READ_OAUTH_CLIENT_SECRET only") != std::string::npos);
    CHECK(help.find("--oauth-introspection-cache SECONDS") != std::string::npos);
    CHECK(help.find("--oauth-introspect-all") != std::string::npos);
  }
}
