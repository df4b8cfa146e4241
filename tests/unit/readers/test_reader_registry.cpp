// The reader registry: each format declared once, and what is made from it (kinds, extensions,
// options) documented in README.md and the man page. A reader registered but not documented fails
// here.
#include <doctest/doctest.h>

#include <cctype>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "mcpread/readers/registry.hpp"

using namespace mcpread::readers;

namespace {

std::string source_file(const std::string& relative) {
  std::ifstream in(std::string(MCPREAD_SOURCE_DIR) + "/" + relative, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// "--pdf-max-pages" as troff writes it: "\-\-pdf\-max\-pages".
std::string troff(std::string_view option) {
  std::string out;
  for (char c : option) {
    if (c == '-') out += '\\';
    out += c;
  }
  return out;
}

// The line after the first line that is `marker` (empty when there is none).
std::string line_after(const std::string& text, const std::string& marker) {
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);)
    if (line == marker) return std::getline(lines, line) ? line : std::string();
  return {};
}

bool has_word(const std::string& line, std::string_view word) {
  for (auto at = line.find(word); at != std::string::npos; at = line.find(word, at + 1)) {
    const auto end = at + word.size();
    const auto is_word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
    if ((at == 0 || !is_word(line[at - 1])) && (end == line.size() || !is_word(line[end]))) return true;
  }
  return false;
}

// What of the registry README.md and the man page leave out, one line per omission.
std::vector<std::string> undocumented(const ReaderRegistry& registry, const std::string& readme,
                                      const std::string& man) {
  std::vector<std::string> missing;
  std::string readme_types;
  for (std::istringstream lines(readme); std::getline(lines, readme_types);)
    if (readme_types.starts_with("| `file_type`")) break;
  const std::string man_types = line_after(man, ".B file_type");
  for (const Reader& r : registry.readers()) {
    const std::string kind(r.kind.name());
    if (r.selectable && readme_types.find("`" + kind + "`") == std::string::npos)
      missing.push_back("README.md's file_type row lacks `" + kind + "`");
    if (r.selectable && !has_word(man_types, kind))
      missing.push_back("the man page's file_type lacks " + kind);
    for (const ReaderOption& o : r.options) {
      if (readme.find("`" + std::string(o.name) + " N") == std::string::npos)
        missing.push_back("README.md's options table lacks " + std::string(o.name));
      if (man.find(troff(o.name)) == std::string::npos)
        missing.push_back("the man page lacks " + std::string(o.name));
    }
  }
  return missing;
}

ReadOutcome no_read(const ReaderCall&) { return ReadOutcome::error("unused"); }

}  // namespace

TEST_CASE("reader registry: the built-in readers") {
  const ReaderRegistry& registry = reader_registry();
  SUBCASE("each registered once; text and json first, archive last") {
    // The order is register_readers.cpp's; what it must keep is asserted, not the whole list (a
    // new reader adds a line there and nothing here).
    std::vector<std::string> kinds;
    for (const Reader& r : registry.readers()) kinds.emplace_back(r.kind.name());
    REQUIRE(kinds.size() >= 16);
    CHECK(std::set<std::string>(kinds.begin(), kinds.end()).size() == kinds.size());
    CHECK(kinds[0] == "text");
    CHECK(kinds[1] == "json");
    CHECK(kinds.back() == "archive");  // the zip-based readers' sniffers keep their packages
  }
  SUBCASE("every reader reads and names itself; every extension promises its reader's kind") {
    std::set<std::string_view> options;
    for (const Reader& r : registry.readers()) {
      CAPTURE(r.kind.name());
      CHECK(static_cast<bool>(r.read));
      CHECK_FALSE(r.article.empty());
      CHECK_FALSE(r.noun.empty());
      CHECK(article(r.kind) == r.article);
      // A few words in the tool list every conversation carries, not a paragraph.
      if (r.describe != nullptr) CHECK(r.describe(ReadLimits{}).size() <= 200);
      for (const ExtensionClaim& e : r.extensions) {
        CAPTURE(e.extension);
        CHECK(mime_for_name("x." + std::string(e.extension)) == e.mime);
        // Nothing to look at: the name decides.
        CHECK(classify("x." + std::string(e.extension), {}, 0).kind == r.kind);
      }
      for (const ReaderOption& o : r.options) {
        CHECK(options.insert(o.name).second);
        CHECK(o.name.starts_with("--"));
        CHECK(static_cast<bool>(o.get));
        CHECK(static_cast<bool>(o.set));
        ReadLimits limits;
        o.set(limits, o.min);
        CHECK(o.get(limits) == o.min);
      }
    }
    CHECK(article(FileKind::binary) == "a binary file");
  }
  SUBCASE("file_type names a selectable reader; auto and binary name none") {
    for (const Reader& r : registry.readers()) {
      FileKind got = FileKind::binary;
      CHECK(parse_file_kind(r.kind.name(), &got) == r.selectable);
    }
    FileKind got = FileKind::pdf;
    CHECK_FALSE(parse_file_kind("auto", &got));
    CHECK_FALSE(parse_file_kind("binary", &got));
    CHECK(got == FileKind::pdf);
  }
  SUBCASE("mcp-read's readers register into an empty registry, and only once") {
    ReaderRegistry fresh;
    CHECK(register_readers(fresh));
    CHECK(fresh.readers().size() == registry.readers().size());
    CHECK_FALSE(register_readers(fresh));  // every kind is taken now
    CHECK(fresh.readers().size() == registry.readers().size());
  }
  SUBCASE("README.md and the man page document every reader's kind and options") {
    const std::string readme = source_file("README.md");
    const std::string man = source_file("docs/mcp-read.1");
    REQUIRE_FALSE(readme.empty());
    REQUIRE_FALSE(man.empty());
    const auto missing = undocumented(registry, readme, man);
    for (const auto& m : missing) FAIL_CHECK(m);
  }
}

TEST_CASE("reader registry: registration rules") {
  ReaderRegistry registry;
  constexpr FileKind sheet{"sheet"};
  REQUIRE(registry.add(Reader{.kind = sheet, .article = "a spreadsheet", .noun = "spreadsheets",
                              .extensions = {{"xlsx", "application/vnd.ms-excel"}},
                              .options = {limit_option<&ReadLimits::pdf_max_pages>("--sheet-max-rows", "rows", 1, 10)},
                              .read = no_read}));
  SUBCASE("a kind, an extension or binary registered twice is refused; the first stays") {
    CHECK_FALSE(registry.add(Reader{.kind = sheet, .article = "another", .noun = "others", .read = no_read}));
    CHECK_FALSE(registry.add(Reader{.kind = FileKind{"table"}, .article = "a table", .noun = "tables",
                                    .extensions = {{"xlsx", "x/y"}}, .read = no_read}));
    CHECK_FALSE(registry.add(Reader{.kind = FileKind::binary, .article = "a binary", .noun = "binaries", .read = no_read}));
    REQUIRE(registry.readers().size() == 1);
    CHECK(registry.find(sheet)->article == "a spreadsheet");
    const ExtensionClaim* claim = nullptr;
    CHECK(registry.for_extension("xlsx", &claim) == registry.find("sheet"));
    CHECK(claim->mime == "application/vnd.ms-excel");
    CHECK(registry.for_extension("docx") == nullptr);
  }
  SUBCASE("a reader missing from the docs is named, kind and option alike") {
    const std::string readme = "| `file_type` | string | `auto`, `text` |\n";
    const std::string man = ".B file_type\n.BR auto \" or \" text .\n";
    CHECK(undocumented(registry, readme, man) ==
          std::vector<std::string>{"README.md's file_type row lacks `sheet`",
                                   "the man page's file_type lacks sheet",
                                   "README.md's options table lacks --sheet-max-rows",
                                   "the man page lacks --sheet-max-rows"});
    const std::string documented_readme = "| `file_type` | string | `auto`, `sheet` |\n| `--sheet-max-rows N` |";
    const std::string documented_man = ".B file_type\n.BR auto \" or \" sheet .\n.BI \\-\\-sheet\\-max\\-rows \" N\"\n";
    CHECK(undocumented(registry, documented_readme, documented_man).empty());
  }
}
