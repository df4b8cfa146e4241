// What the server tells clients and users about the formats comes from the reader registry: the
// instructions sent at initialize, `--help`, the resource template and the read tool's
// description each name every registered reader. A reader registered but missing from one fails
// here.
#include "fixtures.hpp"
#include "read_tool.hpp"
#include "roots_state.hpp"
#include "tool_host.hpp"

#include "mcpread/readers/registry.hpp"
#include "mcpread/server/cli.hpp"
#include "mcpread/server/server_info.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

using namespace mcpread;
using mcpread::readers::Reader;

namespace {

// `text` with its line breaks as spaces: --help wraps its lines between words.
std::string one_line(std::string text) {
  std::replace(text.begin(), text.end(), '\n', ' ');
  return text;
}

// The names `text` leaves out, one line each, "<what> lacks <name>".
std::vector<std::string> unnamed(const std::string& what, const std::string& text,
                                 const std::vector<std::string>& names) {
  std::vector<std::string> missing;
  for (const auto& name : names)
    if (one_line(text).find(name) == std::string::npos) missing.push_back(what + " lacks " + name);
  return missing;
}

std::vector<std::string> nouns(bool resources_only) {
  std::vector<std::string> out;
  for (const Reader& r : readers::reader_registry().readers())
    if (!resources_only || r.resource != nullptr) out.emplace_back(r.noun);
  return out;
}

// Kinds as the read tool's description names them: at the start of a line ("- pdf: ",
// "- docx, odt: ") or, for a reading only file_type asks for, quoted ("\"json\"").
std::vector<std::string> description_misses(const std::string& description) {
  std::vector<std::string> missing;
  for (const Reader& r : readers::reader_registry().readers()) {
    const std::string kind(r.kind.name());
    const bool listed = description.find("\n- " + kind + ":") != std::string::npos ||
                        description.find("\n- " + kind + ", ") != std::string::npos ||
                        description.find(", " + kind + ":") != std::string::npos ||
                        description.find(", " + kind + ", ") != std::string::npos ||
                        description.find("\"" + kind + "\"") != std::string::npos;
    if (!listed) missing.push_back("the read tool's description lacks " + kind);
  }
  return missing;
}

std::string template_description() {
  server::Config config;
  readers::Roots roots;
  std::string error;
  REQUIRE(readers::Roots::from_paths({"/"}, &roots, &error));
  server::RootsState state(roots, false);
  boost::asio::thread_pool pool{1};
  server::ToolHost host(config, state, pool);
  REQUIRE(host.resource_templates().size() == 1);
  return host.resource_templates()[0].description;
}

}  // namespace

TEST_CASE("registry texts: every registered reader is named wherever formats are listed") {
  REQUIRE(readers::reader_registry().readers().size() >= 14);
  SUBCASE("the instructions sent at initialize") {
    for (const auto& m : unnamed("the instructions", server::server_info().instructions, nouns(false))) FAIL_CHECK(m);
  }
  SUBCASE("--help") {
    for (const auto& m : unnamed("--help", server::usage(), nouns(false))) FAIL_CHECK(m);
  }
  SUBCASE("the resource template, for the readers that serve resources") {
    for (const auto& m : unnamed("the resource template", template_description(), nouns(true))) FAIL_CHECK(m);
  }
  SUBCASE("the read tool's description, by kind") {
    const server::Config config;
    const auto tools = server::read_tool_definitions(config);
    REQUIRE(tools.size() == 2);
    for (const auto& m : description_misses(tools[0].description)) FAIL_CHECK(m);
  }
  SUBCASE("`offset`'s description, by what each reader counts") {
    const server::Config config;
    const auto tools = server::read_tool_definitions(config);
    const std::string offset = tools[0].input_schema["properties"]["offset"]["description"];
    CHECK(offset == "Where to start, 1-based: a line, or the cell, paragraph, row or entry an answer counts in.");
    for (const auto& r : readers::reader_registry().readers()) {
      if (r.counts.empty()) continue;
      CHECK_MESSAGE(offset.find(" " + std::string(r.counts)) != std::string::npos,
                    "offset's description lacks " << r.counts << ", what " << r.kind.name() << " counts");
      // Kinds are not listed: the answers name their unit, and the list stays one size.
      CHECK_MESSAGE(offset.find(std::string(r.kind.name())) == std::string::npos, r.kind.name());
    }
  }
}

TEST_CASE("registry texts: a reader left out is named") {
  CHECK(unnamed("--help", "reads text, PDFs and\nEPUB books", {"text", "PDFs", "EPUB books", "spreadsheets"}) ==
        std::vector<std::string>{"--help lacks spreadsheets"});
  const std::string description = "Read.\n- text: lines\n- docx, odt: paragraphs\n`file_type` \"json\" pretty-prints.";
  const auto missing = description_misses(description);
  CHECK(std::find(missing.begin(), missing.end(), "the read tool's description lacks odt") == missing.end());
  CHECK(std::find(missing.begin(), missing.end(), "the read tool's description lacks json") == missing.end());
  CHECK(std::find(missing.begin(), missing.end(), "the read tool's description lacks pdf") != missing.end());
}

TEST_CASE("registry texts: the instructions as sent") {
  CHECK(server::server_info().instructions ==
        "Use the read tool to read files (" + readers::reader_nouns() +
            ") and list directories: text with numbered lines, images sized for the model, offset/limit or "
            "pages to page through large files. Paths must lie inside the allowed roots.");
  CHECK(readers::reader_nouns().starts_with("text, JSON, images, PDFs, notebooks, audio, Word documents, "));
}
