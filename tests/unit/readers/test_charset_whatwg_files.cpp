// The real files of the corpus (tests/corpus/manifest, fetched into the corpus cache) in the
// standard's legacy encodings, decoded by mcp-read in random chunks and by the standard's
// algorithms (whatwg_reference.cpp): no difference. The corpus's own text check reads them
// through the server, line by line; this feeds the decoder cuts anywhere inside a file.
#include "mcpread/readers/charset.hpp"
#include "whatwg_reference.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using mcpread::readers::DetectedCharset;
using mcpread::readers::Utf8Converter;

namespace {

std::string slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

fs::path corpus_cache() {
  const char* xdg = std::getenv("XDG_CACHE_HOME");
  const char* home = std::getenv("HOME");
  const fs::path cache = xdg != nullptr && *xdg != '\0' ? fs::path(xdg)
                         : home != nullptr             ? fs::path(home) / ".cache"
                                                       : fs::path("/nonexistent");
  return cache / "mcp-read-corpus";
}

// The unpacked package's directory in the cache ("<package>_<version>"), or empty.
fs::path package_root(const std::string& package) {
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(corpus_cache(), ec))
    if (entry.path().filename().string().starts_with(package + "_")) return entry.path();
  return {};
}

// The standard's label table (encodings.json): label -> encoding name.
std::map<std::string, std::string> standard_labels() {
  std::map<std::string, std::string> labels;
  const auto groups = nlohmann::json::parse(slurp(fs::path(MCPREAD_SOURCE_DIR) / "tests/data/whatwg-encoding/encodings.json"));
  for (const auto& group : groups)
    for (const auto& encoding : group["encodings"])
      for (const auto& label : encoding["labels"]) labels[label.get<std::string>()] = encoding["name"].get<std::string>();
  return labels;
}

struct CorpusFile {
  std::string package, path, label, encoding;
};

// The manifest's text files whose reference is a label of one of the standard's legacy encodings.
std::vector<CorpusFile> legacy_text_files() {
  const auto labels = standard_labels();
  const auto& legacy = mcpread::test::whatwg::legacy_encodings();
  std::vector<CorpusFile> files;
  std::set<std::string> seen;
  std::istringstream manifest(slurp(fs::path(MCPREAD_SOURCE_DIR) / "tests/corpus/manifest"));
  std::string line;
  while (std::getline(manifest, line)) {
    std::istringstream fields(line);
    CorpusFile f;
    std::string kind;
    if (!(fields >> f.package >> f.path >> kind >> f.label) || f.package.starts_with("#") || kind != "text") continue;
    const auto it = labels.find(f.label);
    if (it == labels.end() || f.path.find('*') != std::string::npos) continue;
    f.encoding = it->second;
    if (std::find(legacy.begin(), legacy.end(), f.encoding) == legacy.end()) continue;
    if (seen.insert(f.package + "/" + f.path).second) files.push_back(f);
  }
  return files;
}

}  // namespace

TEST_CASE("charset whatwg: the corpus's legacy text files cut anywhere decode as the standard says") {
  const auto files = legacy_text_files();
  REQUIRE(files.size() >= 20);
  std::size_t found = 0;
  std::mt19937 rng(1127);
  for (const auto& f : files) {
    const fs::path root = package_root(f.package);
    if (root.empty() || !fs::exists(root / f.path)) continue;
    ++found;
    CAPTURE(f.path);
    std::string bytes = slurp(root / f.path);
    // The standard's "decode": a UTF-16 byte-order mark chooses the encoding and is dropped (as
    // the text reader does too).
    std::string encoding = f.encoding;
    if (bytes.starts_with("\xFF\xFE") || bytes.starts_with("\xFE\xFF")) {
      encoding = bytes[0] == '\xFF' ? "UTF-16LE" : "UTF-16BE";
      bytes.erase(0, 2);
    }
    DetectedCharset cs;
    REQUIRE(mcpread::readers::resolve_encoding_name(encoding, &cs));
    Utf8Converter converter(cs.name);
    REQUIRE(converter.ok());
    std::string product;
    for (std::size_t at = 0; at < bytes.size();) {
      const std::size_t piece = std::uniform_int_distribution<std::size_t>(0, 97)(rng);
      converter.convert(std::string_view(bytes).substr(at, piece), product, false);
      at += piece;
    }
    converter.convert({}, product, true);
    const std::string standard = mcpread::test::whatwg::decode(encoding, bytes);
    CHECK(product.size() == standard.size());
    CHECK(product == standard);
  }
  if (found < files.size()) {
    // The test command runs this again after the corpus phase with MCPREAD_REQUIRE_CORPUS=1 set,
    // when the cache is there on any machine: then a missing file is a failure.
    REQUIRE_MESSAGE(std::getenv("MCPREAD_REQUIRE_CORPUS") == nullptr,
                    "needs the corpus cache (tests/corpus): ", files.size() - found, " file(s) missing");
    MESSAGE("compared ", found, " of ", files.size(), " files: the others need the corpus cache (tests/corpus)");
  }
}
