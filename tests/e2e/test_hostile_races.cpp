// Files that change while the server reads them: a thread of the test appends to, rewrites or
// deletes the file without pause while the client reads it again and again. The interleaving is
// up to the scheduler, so every assertion holds whatever it is: each answer is either a correct
// read of some state of the file or the specific error for a state it can be in, and the server
// keeps serving. Changes between two calls, which can be timed exactly, are in
// test_hostile_files.cpp.
#include "fixtures.hpp"
#include "hostile_helpers.hpp"
#include "mcp_client.hpp"

#include <doctest/doctest.h>

#include <atomic>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <thread>

using namespace mcpread::test;
using namespace mcpread::test::hostile;
using nlohmann::json;

namespace {

// Lines `first`..`last` of the pattern every file here holds: line K reads "line K".
std::string pattern_lines(int first, int last) {
  std::string out;
  for (int k = first; k <= last; ++k) out += "line " + std::to_string(k) + "\n";
  return out;
}

// Runs `step` on a thread of its own until destroyed (also when a REQUIRE leaves the scope).
class Mutator {
 public:
  explicit Mutator(std::function<void()> step)
      : thread_([this, step = std::move(step)] {
          while (!stop_.load()) {
            step();
            ++rounds_;
          }
        }) {}
  ~Mutator() {
    stop_ = true;
    thread_.join();
  }
  Mutator(const Mutator&) = delete;
  Mutator& operator=(const Mutator&) = delete;
  [[nodiscard]] long rounds() const { return rounds_.load(); }

 private:
  std::atomic<bool> stop_{false};
  std::atomic<long> rounds_{0};
  std::thread thread_;
};

// Checks a successful read's numbered lines against the pattern: line K must read "line K".
// With `torn_last`, the last numbered line may be cut short (an append caught half-written).
void check_numbered_lines(const std::string& text, bool torn_last) {
  std::istringstream in(text);
  std::string line;
  std::vector<std::pair<long, std::string>> numbered;
  while (std::getline(in, line)) {
    const auto tab = line.find('\t');
    if (tab == std::string::npos) continue;  // the blank line and the closing note
    numbered.emplace_back(std::stol(line.substr(0, tab)), line.substr(tab + 1));
  }
  REQUIRE_FALSE(numbered.empty());
  for (std::size_t i = 0; i < numbered.size(); ++i) {
    const auto& [number, content] = numbered[i];
    if (i > 0) CHECK(number == numbered[i - 1].first + 1);
    const std::string expected = "line " + std::to_string(number);
    if (torn_last && i + 1 == numbered.size())
      CHECK_MESSAGE(expected.rfind(content, 0) == 0, "line " << number << " reads \"" << content << "\"");
    else
      CHECK_MESSAGE(content == expected, "line " << number << " reads \"" << content << "\"");
  }
}

}  // namespace

TEST_CASE("hostile files: changed while being read") {
  TempDir root;
  root.write("small.txt", "small\n");
  const auto path = root.path() / "live.log";
  McpClient client({{root.path().string()}});
  client.initialize();
  constexpr int reads = 40;

  SUBCASE("grows: appended to without pause") {
    root.write("live.log", pattern_lines(1, 20000));
    int next = 20001;
    Mutator appender([&] {
      if (next > 400000) {  // about 5 MB: enough to outgrow every read, small enough to scan
        std::this_thread::yield();
        return;
      }
      std::ofstream out(path, std::ios::app | std::ios::binary);
      out << pattern_lines(next, next + 499);
      next += 500;
    });
    for (int i = 0; i < reads; ++i) {
      // Early lines, then lines near the end that moves while the read runs.
      const int offset = i % 2 == 0 ? 1 : 19000 + i * 500;
      const json r = client.call("read", {{"file_path", "live.log"}, {"offset", offset}, {"file_type", "text"}});
      if (r.value("isError", false))  // the end had not yet come that far
        CHECK_MESSAGE(text_of(r).rfind("Offset " + std::to_string(offset) + " is past the end of " + path.string() + ": ", 0) == 0,
                      text_of(r));
      else
        check_numbered_lines(text_of(r), true);
    }
    MESSAGE(appender.rounds() << " appends during the reads");
  }
  SUBCASE("rewritten: truncated and written again without pause") {
    root.write("live.log", pattern_lines(1, 30000));
    const std::string content = pattern_lines(1, 30000);
    Mutator rewriter([&] {
      std::ofstream out(path, std::ios::trunc | std::ios::binary);
      out << content;
    });
    for (int i = 0; i < reads; ++i) {
      const int offset = 1 + (i * 997) % 29000;
      const json r = client.call("read", {{"file_path", "live.log"}, {"offset", offset}, {"file_type", "text"}});
      const std::string text = text_of(r);
      if (r.value("isError", false)) {
        // The read came while the file was shorter than the offset.
        CHECK_MESSAGE(text.rfind("Offset " + std::to_string(offset) + " is past the end of " + path.string() + ": ", 0) == 0, text);
      } else if (text.rfind("[The file is empty", 0) != 0) {
        // Every state of the file is a prefix of the same content, so the lines read are the
        // file's own, numbered from its start; only the last may be cut by a truncation.
        check_numbered_lines(text, true);
      }
    }
    MESSAGE(rewriter.rounds() << " rewrites during the reads");
  }
  SUBCASE("deleted and recreated without pause") {
    const std::string content = pattern_lines(1, 30000);
    root.write("live.log", content);
    const auto staged = root.path() / "live.staged";
    bool present = true;
    Mutator churn([&] {
      // On Windows a file the server holds open can refuse for a moment to go or be replaced:
      // the step is then tried again.
      std::error_code ec;
      if (present) {
        std::filesystem::remove(path, ec);
      } else {
        {
          std::ofstream out(staged, std::ios::trunc | std::ios::binary);
          out << content;
        }
        std::filesystem::rename(staged, path, ec);  // whole files only: a reader sees one or none
      }
      if (!ec) present = !present;
    });
    for (int i = 0; i < reads; ++i) {
      const json r = client.call("read", {{"file_path", "live.log"}, {"offset", 1 + i * 500}, {"file_type", "text"}});
      if (r.value("isError", false))  // (followed by a "Did you mean" when live.staged exists)
        CHECK_MESSAGE(text_of(r).rfind("File not found: " + path.string() + ".", 0) == 0, text_of(r));
      else
        check_numbered_lines(text_of(r), false);
    }
    MESSAGE(churn.rounds() << " deletions and re-creations during the reads");
  }
  check_still_serving(client, "small.txt");
  check_peak_under(client, text_mib, "text reads of a 300 KiB file");
}
