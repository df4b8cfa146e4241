// Which reads a transport may answer on its own thread: small cached plain text only.
#include "fixtures.hpp"

#include "mcpread/readers/quick_read.hpp"

#include <doctest/doctest.h>
#include <sys/stat.h>

#include <string>

using mcpread::readers::quick_text_read;
using mcpread::test::TempDir;

TEST_CASE("quick reads: small cached plain text only") {
  TempDir dir;
  const std::string text = "int main() {\n  return 0;\n}\n";
  const std::string path = dir.write("main.cpp", text).string();

  SUBCASE("a small text file just written (so cached) is quick") { CHECK(quick_text_read(path, 1024)); }
  SUBCASE("over the size given, it is not") { CHECK_FALSE(quick_text_read(path, text.size() - 1)); }
  SUBCASE("a relative path is not (it needs the roots)") { CHECK_FALSE(quick_text_read("main.cpp", 1024)); }
  SUBCASE("a directory, a missing file and an empty file are not") {
    CHECK_FALSE(quick_text_read(dir.path().string(), 1024));
    CHECK_FALSE(quick_text_read(dir.path().string() + "/missing.txt", 1024));
    CHECK_FALSE(quick_text_read(dir.write("empty.txt", "").string(), 1024));
  }
  SUBCASE("a FIFO is not, and asking does not wait for a writer") {
    const std::string fifo = dir.path().string() + "/pipe";
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    CHECK_FALSE(quick_text_read(fifo, 1024));
  }
  SUBCASE("other kinds are not, even small: they decode") {
    CHECK_FALSE(quick_text_read(dir.write("a.png", std::string("\x89PNG\r\n\x1A\n", 8) + std::string(64, '\0')).string(), 1024));
    CHECK_FALSE(quick_text_read(dir.write("a.pdf", "%PDF-1.4\n%\xE2\xE3\xCF\xD3\n").string(), 1024));
    CHECK_FALSE(quick_text_read(dir.write("a.ipynb", R"({"cells": [], "nbformat": 4, "nbformat_minor": 5, "metadata": {}})").string(), 1024));
    CHECK_FALSE(quick_text_read(dir.write("a.bin", std::string("\x7F" "ELF\x02\x01\x01\0\0\0\0\0\0\0\0\0", 16)).string(), 1024));
  }
}
