// The server's resources: the template, resources/list pages and cursors, and resources/read
// results and refusals as the protocol layer receives them.
#include "fixtures.hpp"
#include "roots_state.hpp"
#include "tool_host.hpp"

#include "mcpread/readers/resources.hpp"

#include <doctest/doctest.h>

#include <future>
#include <set>
#include <string>

using namespace mcpread;
using mcpread::test::TempDir;
using nlohmann::json;

namespace {

struct Host {
  explicit Host(const TempDir& dir) : roots(roots_of(dir), false), host(config, roots, pool) {}
  static readers::Roots roots_of(const TempDir& dir) {
    readers::Roots r;
    std::string error;
    REQUIRE(readers::Roots::from_paths({dir.path().string()}, &r, &error));
    return r;
  }
  server::Config config;
  server::RootsState roots;
  boost::asio::thread_pool pool{1};
  server::ToolHost host;

  protocol::ResourceOutcome read(const std::string& uri) {
    protocol::ResourceRequest r;
    r.uri = uri;
    return host.run_read(r);
  }
  protocol::ResourceOutcome list(const std::string& cursor = {}) {
    protocol::ResourceRequest r;
    r.cursor = cursor;
    return host.run_list(r);
  }
};

json result_of(const protocol::ResourceOutcome& o) {
  const auto* e = std::get_if<protocol::ResourceError>(&o);
  REQUIRE_MESSAGE(e == nullptr, (e ? e->message : ""));
  return std::get<json>(o);
}

protocol::ResourceError error_of(const protocol::ResourceOutcome& o) {
  REQUIRE(std::holds_alternative<protocol::ResourceError>(o));
  return std::get<protocol::ResourceError>(o);
}

}  // namespace

TEST_CASE("tool host: the file template") {
  TempDir dir;
  Host h(dir);
  REQUIRE(h.host.resource_templates().size() == 1);
  const auto& t = h.host.resource_templates()[0];
  CHECK(t.uri_template == "file:///{+path}");
  CHECK(t.name == "file");
  CHECK(t.title == "File or directory");
  CHECK(t.mime_type.empty());
  CHECK(t.description.find("at most 100 KB") != std::string::npos);
}

TEST_CASE("tool host: resources/read") {
  TempDir dir;
  dir.write("a b.txt", "alpha\n");
  Host h(dir);
  const std::string uri = readers::file_uri((dir.path() / "a b.txt").string());
  SUBCASE("text: the uri as asked, the type, the text and its _meta") {
    const json r = result_of(h.read(uri));
    CHECK(r == json{{"contents", json::array({{{"uri", uri},
                                               {"mimeType", "text/plain"},
                                               {"text", "alpha\n"},
                                               {"_meta", {{"charset", "UTF-8"}, {"size", 6}, {"truncated", false}}}}})}});
  }
  SUBCASE("file://localhost is the same file") {
    const std::string local = "file://localhost" + uri.substr(7);
    CHECK(result_of(h.read(local))["contents"][0]["uri"] == local);
  }
  SUBCASE("not a file URI: invalid, saying what works") {
    for (const std::string bad : {"https://example.com/a", "file://host/a", "file:///a%zz", "a.txt"}) {
      const auto e = error_of(h.read(bad));
      CHECK(e.kind == protocol::ResourceError::Kind::invalid);
      CHECK(e.message == "\"" + bad + "\" is not a file URI this server reads. Use "
                        "file:///absolute/path with the path percent-encoded, as resources/list gives it.");
    }
  }
  SUBCASE("missing, or outside the roots: not found") {
    CHECK(error_of(h.read(uri + "x")).kind == protocol::ResourceError::Kind::not_found);
    CHECK(error_of(h.read("file:///etc/hostname")).kind == protocol::ResourceError::Kind::not_found);
    CHECK(error_of(h.read(readers::file_uri(dir.path().string()) + "/../x")).kind ==
          protocol::ResourceError::Kind::not_found);
  }
  SUBCASE("a directory's listing says how to list more in the read tool's arguments") {
    for (int i = 0; i < 1001; ++i) dir.write("many/" + std::to_string(10000 + i), "x");
    const json r = result_of(h.read(readers::file_uri((dir.path() / "many").string())));
    const std::string text = r["contents"][0]["text"].get<std::string>();
    CHECK(text.ends_with("[Entries 1-1000 of 1001 entries. To list more, call read again with offset=1001.]"));
  }
  SUBCASE("through the worker pool") {
    std::promise<protocol::ResourceOutcome> answer;
    protocol::ResourceRequest r;
    r.uri = uri;
    r.cancelled = std::make_shared<std::atomic<bool>>(false);
    h.host.read_resource(r, [&](protocol::ResourceOutcome o) { answer.set_value(std::move(o)); });
    CHECK(result_of(answer.get_future().get())["contents"][0]["text"] == "alpha\n");
  }
}

TEST_CASE("tool host: resources/list") {
  TempDir dir;
  for (int i = 0; i < 450; ++i) dir.write("f/" + std::to_string(1000 + i) + ".txt", "x");
  Host h(dir);
  SUBCASE("pages of 200 joined by cursors") {
    std::set<std::string> uris;
    std::string cursor;
    int pages = 0;
    for (;;) {
      const json r = result_of(h.list(cursor));
      ++pages;
      for (const auto& resource : r["resources"]) {
        CHECK(resource["mimeType"] == "text/plain");
        CHECK(resource["size"] == 1);
        uris.insert(resource["uri"].get<std::string>());
      }
      CHECK(r["resources"].size() == (r.contains("nextCursor") ? 200u : 50u));
      CHECK_FALSE(r.contains("_meta"));
      if (!r.contains("nextCursor")) break;
      cursor = r["nextCursor"].get<std::string>();
    }
    CHECK(pages == 3);
    CHECK(uris.size() == 450);
    CHECK(uris.count(readers::file_uri((dir.path() / "f/1000.txt").string())) == 1);
  }
  SUBCASE("an unknown cursor is invalid") {
    for (const std::string bad : {"nope", "mcp-read:tools:0", "mcp-read:resources:99999999"}) {
      const auto e = error_of(h.list(bad));
      CHECK(e.kind == protocol::ResourceError::Kind::invalid);
      CHECK(e.message == "unknown \"cursor\"; pass a nextCursor from an earlier resources/list");
    }
  }
  SUBCASE("a capped listing says so on its last page") {
    h.host.resource_limits.max_listed = 250;
    const json first = result_of(h.list());
    CHECK_FALSE(first.contains("_meta"));
    const json last = result_of(h.list(first["nextCursor"].get<std::string>()));
    CHECK(last["resources"].size() == 50);
    CHECK_FALSE(last.contains("nextCursor"));
    CHECK(last["_meta"]["truncated"] == true);
    CHECK(last["_meta"]["note"] ==
          "Not every file is listed: the listing stops after 250 files, 100000 directory entries "
          "looked at, or 32 directory levels. Other files can still be read by URI (file:///{+path}).");
  }
}
