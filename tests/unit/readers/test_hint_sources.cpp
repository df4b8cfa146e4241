// Readers name no argument of the read tool: a sentence that tells the model how to call read
// again is said through the read's Wording (Wording::say(Hint, HintForm)), which the tool host
// gives each read (server::hint_wording). This scans the readers' sources for the words
// "call read" outside comments, so a message written by hand fails here. register_*.cpp files are
// left out: their option descriptions speak of the tool's arguments.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

// The code and string literals of a C++ source, its comments blanked (newlines kept, so line
// numbers hold). Character literals and raw strings are followed far enough not to take a quote
// or a "//" inside them for the start of something else.
std::string without_comments(const std::string& src) {
  std::string out;
  out.reserve(src.size());
  std::size_t i = 0;
  auto blank_until = [&](std::size_t end) {
    for (; i < end && i < src.size(); ++i) out += src[i] == '\n' ? '\n' : ' ';
  };
  while (i < src.size()) {
    const char c = src[i];
    if (c == '/' && i + 1 < src.size() && src[i + 1] == '/') {
      const std::size_t end = src.find('\n', i);
      blank_until(end == std::string::npos ? src.size() : end);
    } else if (c == '/' && i + 1 < src.size() && src[i + 1] == '*') {
      const std::size_t end = src.find("*/", i + 2);
      blank_until(end == std::string::npos ? src.size() : end + 2);
    } else if (c == 'R' && i + 1 < src.size() && src[i + 1] == '"') {
      const std::size_t open = src.find('(', i);
      const std::string close = ")" + src.substr(i + 2, open - i - 2) + "\"";
      const std::size_t end = src.find(close, open);
      const std::size_t stop = end == std::string::npos ? src.size() : end + close.size();
      out.append(src, i, stop - i);
      i = stop;
    } else if (c == '"' || c == '\'') {
      std::size_t j = i + 1;
      while (j < src.size() && src[j] != c && src[j] != '\n') j += src[j] == '\\' ? 2 : 1;
      const std::size_t stop = std::min(j + 1, src.size());
      out.append(src, i, stop - i);
      i = stop;
    } else {
      out += c;
      ++i;
    }
  }
  return out;
}

// "file.cpp:12" for each line of code (comments left out) that holds `needle`.
std::vector<std::string> lines_with(const std::string& name, const std::string& src, const std::string& needle) {
  std::vector<std::string> found;
  std::istringstream code(without_comments(src));
  std::string line;
  for (int number = 1; std::getline(code, line); ++number)
    if (line.find(needle) != std::string::npos) found.push_back(name + ":" + std::to_string(number));
  return found;
}

}  // namespace

TEST_CASE("no reader source words a call of the read tool by hand") {
  SUBCASE("the scan finds the words in code and strings, not in comments") {
    const std::string src =
        "// call read again: a comment\n"
        "/* call read\n   with */ int x = 1;\n"
        "auto s = \"a // b\"; auto t = \"To read more, call read again.\";\n"
        "auto r = R\"(\" call read)\";\n"
        "char q = '\"'; // call read\n";
    CHECK(lines_with("a.cpp", src, "call read") == std::vector<std::string>{"a.cpp:4", "a.cpp:5"});
  }

  SUBCASE("readers/src has none outside register_*.cpp") {
    const std::filesystem::path root = std::filesystem::path(MCPREAD_SOURCE_DIR) / "readers" / "src";
    REQUIRE(std::filesystem::is_directory(root));
    std::string found;  // "file.cpp:12 " each: the failure names them
    std::size_t scanned = 0;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
      const auto& path = entry.path();
      const std::string name = path.filename().string();
      if (!entry.is_regular_file() || name.starts_with("register_")) continue;
      if (path.extension() != ".cpp" && path.extension() != ".hpp" && path.extension() != ".h") continue;
      std::ifstream in(path, std::ios::binary);
      std::ostringstream s;
      s << in.rdbuf();
      ++scanned;
      for (const auto& at : lines_with(std::filesystem::relative(path, root).string(), s.str(), "call read"))
        found += at + " ";
    }
    CHECK(scanned > 50);
    CHECK(found == "");
  }
}
