// Adding a reader is enforced here: every registered reader has a fuzz target that names it
// ("// Readers fuzzed: ..." in fuzz/fuzz_*.cpp, built in fuzz/CMakeLists.txt and run by
// scripts/fuzz.sh), a unit test file of its own (tests/unit/readers/test_<kind>*.cpp) and rows
// of real files in the corpus (tests/corpus/manifest). CONTRIBUTING.md says how.
#include "mcpread/readers/registry.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using namespace mcpread::readers;

namespace {

const std::filesystem::path kSource = MCPREAD_SOURCE_DIR;

std::string file_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The fuzz targets by the kinds they name: kind -> targets.
std::map<std::string, std::set<std::string>> fuzzed_kinds(const std::filesystem::path& fuzz_dir) {
  std::map<std::string, std::set<std::string>> out;
  for (const auto& entry : std::filesystem::directory_iterator(fuzz_dir)) {
    const std::string name = entry.path().stem().string();
    if (!name.starts_with("fuzz_") || entry.path().extension() != ".cpp") continue;
    std::istringstream lines(file_text(entry.path()));
    for (std::string line; std::getline(lines, line);) {
      constexpr std::string_view marker = "// Readers fuzzed: ";
      if (!line.starts_with(marker)) continue;
      std::istringstream kinds(line.substr(marker.size()));
      for (std::string kind; std::getline(kinds, kind, ',');) {
        while (!kind.empty() && (kind.front() == ' ')) kind.erase(0, 1);
        while (!kind.empty() && (kind.back() == '.' || kind.back() == ' ')) kind.pop_back();
        out[kind].insert(name);
      }
    }
  }
  return out;
}

// The kinds of the corpus manifest's rows (its third column).
std::set<std::string> corpus_kinds(const std::string& manifest) {
  std::set<std::string> out;
  std::istringstream lines(manifest);
  for (std::string line; std::getline(lines, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string package, path, kind;
    if (fields >> package >> path >> kind) out.insert(kind);
  }
  return out;
}

bool has_unit_tests(const std::filesystem::path& tests_dir, const std::string& kind) {
  for (const auto& entry : std::filesystem::directory_iterator(tests_dir)) {
    const std::string name = entry.path().filename().string();
    if (name.starts_with("test_" + kind) && name.ends_with(".cpp")) return true;
  }
  return false;
}

// What the registered readers lack, one line per omission; and kinds named by fuzz targets that
// no reader registers (a reader renamed or removed).
std::vector<std::string> uncovered(const ReaderRegistry& registry, const std::filesystem::path& source) {
  std::vector<std::string> missing;
  auto fuzzed = fuzzed_kinds(source / "fuzz");
  const std::string fuzz_build = file_text(source / "fuzz/CMakeLists.txt");
  const std::string fuzz_runs = file_text(source / "scripts/fuzz.sh");
  const std::set<std::string> corpus = corpus_kinds(file_text(source / "tests/corpus/manifest"));
  for (const Reader& r : registry.readers()) {
    const std::string kind(r.kind.name());
    const auto targets = fuzzed.find(kind);
    if (targets == fuzzed.end()) {
      missing.push_back("no fuzz target names " + kind + " (\"// Readers fuzzed: " + kind + ".\" in fuzz/fuzz_*.cpp)");
    } else {
      for (const std::string& t : targets->second) {
        if (fuzz_build.find("mcpread_add_fuzzer(" + t + " ") == std::string::npos)
          missing.push_back(t + " (fuzzing " + kind + ") is not built in fuzz/CMakeLists.txt");
        if (fuzz_runs.find("[" + t + "]=") == std::string::npos)
          missing.push_back(t + " (fuzzing " + kind + ") has no runs in scripts/fuzz.sh");
      }
      fuzzed.erase(targets);
    }
    if (!has_unit_tests(source / "tests/unit/readers", kind))
      missing.push_back("no unit tests for " + kind + " (tests/unit/readers/test_" + kind + "*.cpp)");
    if (!corpus.contains(kind)) missing.push_back("no corpus rows of kind " + kind + " (tests/corpus/manifest)");
  }
  for (const auto& [kind, targets] : fuzzed) missing.push_back(*targets.begin() + " fuzzes " + kind + ", which no reader registers");
  return missing;
}

ReadOutcome no_read(const ReaderCall&) { return ReadOutcome::error("unused"); }

}  // namespace

TEST_CASE("reader coverage: every reader is fuzzed, unit-tested and in the corpus") {
  SUBCASE("mcp-read's readers") {
    const auto missing = uncovered(reader_registry(), kSource);
    for (const auto& m : missing) FAIL_CHECK(m);
  }
  SUBCASE("a reader without them is named, each omission once") {
    ReaderRegistry registry;
    constexpr FileKind sheet{"sheet"};
    REQUIRE(registry.add(Reader{.kind = sheet, .article = "a sheet", .noun = "sheets", .read = no_read}));
    const auto missing = uncovered(registry, kSource);
    CHECK(std::find(missing.begin(), missing.end(),
                    "no fuzz target names sheet (\"// Readers fuzzed: sheet.\" in fuzz/fuzz_*.cpp)") != missing.end());
    CHECK(std::find(missing.begin(), missing.end(), "no unit tests for sheet (tests/unit/readers/test_sheet*.cpp)") ==
          missing.end());  // test_sheets_*.cpp count for it
    CHECK(std::find(missing.begin(), missing.end(), "no corpus rows of kind sheet (tests/corpus/manifest)") != missing.end());
    // The real readers' fuzz targets now name kinds this registry lacks.
    CHECK(std::find(missing.begin(), missing.end(), "fuzz_csv fuzzes csv, which no reader registers") != missing.end());
  }
}
