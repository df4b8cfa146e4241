#include "line_framer.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using mcpread::server::LineFramer;

namespace {
struct Collector {
  std::vector<std::string> lines;
  std::vector<std::size_t> oversize;
  LineFramer::OnLine on_line = [this](std::string_view l) { lines.emplace_back(l); };
  LineFramer::OnOversize on_oversize = [this](std::size_t n) { oversize.push_back(n); };
};
}  // namespace

TEST_CASE("line framer") {
  Collector c;
  SUBCASE("partial lines are joined, CR stripped, blank lines skipped") {
    LineFramer f(100);
    f.feed("ab", c.on_line, c.on_oversize);
    f.feed("c\r\n\n  \r\nd", c.on_line, c.on_oversize);
    f.feed("e\nf", c.on_line, c.on_oversize);
    CHECK(c.lines == std::vector<std::string>{"abc", "de"});
    f.finish(c.on_line);
    CHECK(c.lines == std::vector<std::string>{"abc", "de", "f"});
  }
  SUBCASE("an oversized line is reported once and skipped to its newline") {
    LineFramer f(10);
    f.feed("0123456789ABC", c.on_line, c.on_oversize);
    f.feed("more bytes of the same line", c.on_line, c.on_oversize);
    f.feed("end\nok\n", c.on_line, c.on_oversize);
    CHECK(c.oversize == std::vector<std::size_t>{13});
    CHECK(c.lines == std::vector<std::string>{"ok"});
  }
  SUBCASE("a line of exactly the limit passes") {
    LineFramer f(5);
    f.feed("12345\n123456\n", c.on_line, c.on_oversize);
    CHECK(c.lines == std::vector<std::string>{"12345"});
    CHECK(c.oversize.size() == 1);
  }
  SUBCASE("an oversized tail at EOF is not emitted") {
    LineFramer f(4);
    f.feed("123456", c.on_line, c.on_oversize);
    f.finish(c.on_line);
    CHECK(c.lines.empty());
  }
}
