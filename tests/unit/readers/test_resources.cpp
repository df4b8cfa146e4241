// Files as MCP resources: file URIs, the bounded and paged walk of the roots (hidden entries,
// links, FIFOs), and the contents of a read (raw text, blobs, listings, refusals).
#include "fixtures.hpp"
#include "image_fixtures.hpp"
#include "pdf_fixtures.hpp"
#include "reader_fixtures.hpp"
#include "symlinks.hpp"

#include "mcpread/readers/classify.hpp"
#include "mcpread/readers/registry.hpp"
#include "mcpread/readers/resources.hpp"

#include <doctest/doctest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

using namespace mcpread::readers;
using mcpread::test::roots_of;
using mcpread::test::TempDir;
namespace fs = std::filesystem;

namespace {

std::vector<std::string> names_of(const ResourcePage& page) {
  std::vector<std::string> names;
  for (const auto& e : page.entries) names.push_back(e.name);
  return names;
}

ResourcePage list(const Roots& roots, std::size_t skip = 0, std::size_t count = 1000,
                  ResourceListLimits limits = {}) {
  return list_resources(roots, skip, count, limits, CancelToken{});
}

ResourceReadResult read(const TempDir& dir, const std::string& relative, ReadLimits limits = {}) {
  return read_resource(roots_of(dir), (dir.path() / relative).string(), limits, CancelToken{});
}

ResourceContent only(const ResourceReadResult& r) {
  REQUIRE_MESSAGE(r.status == ResourceStatus::ok, r.message);
  REQUIRE(r.contents.size() == 1);
  return r.contents[0];
}

}  // namespace

TEST_CASE("resources: file URIs") {
  SUBCASE("to a path: percent-decoded, localhost accepted, other hosts and schemes refused") {
#if defined(_WIN32)  // a path needs its drive there: tests/windows/test_readers.cpp
    CHECK(path_from_file_uri("file:///C:/me/a%20b.txt") == "C:\\me\\a b.txt");
    CHECK(path_from_file_uri("file:///C:/caf%C3%A9/x%2fy") == "C:\\caf\xC3\xA9\\x\\y");
    CHECK(path_from_file_uri("file://localhost/C:/x") == "C:\\x");
    CHECK(path_from_file_uri("file:///C:/x?query#fragment") == "C:\\x");
#else
    CHECK(path_from_file_uri("file:///home/me/a%20b.txt") == "/home/me/a b.txt");
    CHECK(path_from_file_uri("file:///caf%C3%A9/x%2fy") == "/caf\xC3\xA9/x/y");
    CHECK(path_from_file_uri("file://localhost/x") == "/x");
    CHECK(path_from_file_uri("file:///x?query#fragment") == "/x");
#endif
    CHECK(path_from_file_uri("file://otherhost/x").empty());
    CHECK(path_from_file_uri("https://example.com/x").empty());
    CHECK(path_from_file_uri("file:relative").empty());
    CHECK(path_from_file_uri("file:///bad%zz").empty());
    CHECK(path_from_file_uri("file:///cut%2").empty());
    CHECK(path_from_file_uri("file:///nul%00byte").empty());
  }
  SUBCASE("from a path: every byte but unreserved ones and '/' escaped, and back again") {
#if defined(_WIN32)
    const std::string path = "C:\\a b\\caf\xC3\xA9\\100%\\q#x_y-z~.txt";
    const std::string uri = file_uri(path);
    CHECK(uri == "file:///C:/a%20b/caf%C3%A9/100%25/q%23x_y-z~.txt");
#else
    const std::string path = "/a b/caf\xC3\xA9/100%/q?#x_y-z~.txt";
    const std::string uri = file_uri(path);
    CHECK(uri == "file:///a%20b/caf%C3%A9/100%25/q%3F%23x_y-z~.txt");
#endif
    CHECK(path_from_file_uri(uri) == path);
  }
  SUBCASE("types by name") {
    CHECK(mime_for_name("notes.md") == "text/markdown");
    CHECK(mime_for_name("dir/data.JSON") == "application/json");
    CHECK(mime_for_name("a.png") == "image/png");
    CHECK(mime_for_name("song.mp3") == "audio/mpeg");
    CHECK(mime_for_name("Makefile") == "text/x-makefile");
    CHECK(mime_for_name("blob.xyz").empty());
  }
}

TEST_CASE("resources: listing the roots") {
  TempDir dir;
  dir.write("b.txt", "bee");
  dir.write("a/z.md", "# z\n");
  dir.write("a/y.json", "{}");
  dir.write("c.unknownext", "12345");
  dir.write(".env", "SECRET=1");
  dir.write(".git/config", "[core]");
  dir.write("node_modules/left-pad/index.js", "x");
  dir.write("src/__pycache__/m.pyc", "x");
  const Roots roots = roots_of(dir);

  SUBCASE("regular files, depth first, names sorted, hidden and dependency directories skipped") {
    const ResourcePage page = list(roots);
    CHECK(names_of(page) == std::vector<std::string>{"a/y.json", "a/z.md", "b.txt", "c.unknownext"});
    CHECK_FALSE(page.more);
    CHECK_FALSE(page.capped);
    const ResourceEntry& md = page.entries[1];
    CHECK(md.uri == file_uri((dir.path() / "a/z.md").string()));
    CHECK(md.mime == "text/markdown");
    CHECK(md.size == 4);
    CHECK(page.entries[3].mime.empty());
    CHECK(page.entries[3].size == 5);
  }
  SUBCASE("pages fit together") {
    for (int i = 0; i < 23; ++i) dir.write("many/f" + std::to_string(100 + i), "x");
    const auto all = names_of(list(roots));
    REQUIRE(all.size() == 27);
    std::vector<std::string> joined;
    std::size_t pages = 0;
    for (std::size_t skip = 0;; skip += 10) {
      const ResourcePage page = list(roots, skip, 10);
      ++pages;
      for (const auto& n : names_of(page)) joined.push_back(n);
      CHECK(page.entries.size() == (page.more ? 10u : 7u));
      if (!page.more) break;
    }
    CHECK(pages == 3);
    CHECK(joined == all);
    CHECK(list(roots, 27, 10).entries.empty());
    CHECK(list(roots, 500, 10).entries.empty());
  }
  SUBCASE("a cap on files listed: the rest is cut and said so") {
    ResourceListLimits limits;
    limits.max_listed = 3;
    ResourcePage page = list(roots, 0, 10, limits);
    CHECK(names_of(page) == std::vector<std::string>{"a/y.json", "a/z.md", "b.txt"});
    CHECK_FALSE(page.more);
    CHECK(page.capped);
    page = list(roots, 0, 2, limits);
    CHECK(page.more);
    CHECK(list(roots, 2, 2, limits).entries.size() == 1);
    limits.max_listed = 4;  // exactly as many as there are: nothing is cut
    CHECK_FALSE(list(roots, 0, 10, limits).capped);
  }
  SUBCASE("a cap on entries looked at: what was read is listed, nothing more is entered") {
    ResourceListLimits limits;
    // readdir() gives "." and ".." in every folder, and they count as entries looked at; the walk
    // on Windows (std::filesystem's iterator) is given neither.
#if defined(_WIN32)
    constexpr std::size_t dots = 0;
#else
    constexpr std::size_t dots = 2;
#endif
    limits.max_walked = dots + 7;  // the root's seven entries
    ResourcePage page = list(roots, 0, 10, limits);
    CHECK(page.capped);
    CHECK(names_of(page) == std::vector<std::string>{"b.txt", "c.unknownext"});
    limits.max_walked = 2 * dots + 9;  // and the two of a/ (y.json, z.md)
    page = list(roots, 0, 10, limits);
    CHECK(names_of(page) == std::vector<std::string>{"a/y.json", "a/z.md", "b.txt", "c.unknownext"});
    CHECK(page.capped);  // src/ and its __pycache__ were not looked at
    limits.max_walked = 100;
    CHECK_FALSE(list(roots, 0, 10, limits).capped);
  }
  SUBCASE("a cap on depth") {
    dir.write("d1/d2/d3/deep.txt", "x");
    ResourceListLimits limits;
    limits.max_depth = 2;
    const ResourcePage page = list(roots, 0, 100, limits);
    CHECK(page.capped);
    for (const auto& name : names_of(page)) CHECK(name != "d1/d2/d3/deep.txt");
    limits.max_depth = 3;
    const auto names = names_of(list(roots, 0, 100, limits));
    CHECK(std::find(names.begin(), names.end(), "d1/d2/d3/deep.txt") != names.end());
  }
  SUBCASE("links: out of the roots never, to a file inside yes, into directories never") {
    TempDir outside;
    outside.write("secret.txt", "top secret");
    outside.write("sub/inner.txt", "x");
    if (!mcpread::test::make_symlink(dir.path() / "b.txt", dir.path() / "in-file")) return;
    fs::create_directory_symlink(outside.path(), dir.path() / "out-dir");
    fs::create_symlink(outside.path() / "secret.txt", dir.path() / "out-file");
    fs::create_directory_symlink(dir.path() / "a", dir.path() / "in-dir");
    fs::create_symlink(dir.path() / "nowhere", dir.path() / "dangling");
    const ResourcePage page = list(roots);
    CHECK(names_of(page) ==
          std::vector<std::string>{"a/y.json", "a/z.md", "b.txt", "c.unknownext", "in-file"});
    CHECK(page.entries.back().size == 3);  // the target's size
    CHECK(page.entries.back().uri == file_uri((dir.path() / "in-file").string()));
  }
  SUBCASE("a FIFO is left out and never opened (the walk would block otherwise)") {
#if defined(_WIN32)
    MESSAGE("skipped under Windows: its file systems hold no FIFOs (named pipes live apart, in \\\\.\\pipe\\)");
#else
    REQUIRE(::mkfifo((dir.path() / "pipe").c_str(), 0600) == 0);
    CHECK(names_of(list(roots)) == std::vector<std::string>{"a/y.json", "a/z.md", "b.txt", "c.unknownext"});
#endif
  }
  SUBCASE("several roots: in order, names prefixed with the root's name") {
    TempDir second;
    second.write("s.txt", "s");
    Roots both;
    std::string error;
    REQUIRE(Roots::from_paths({dir.path().string(), second.path().string()}, &both, &error));
    const auto names = names_of(list(both));
    REQUIRE(names.size() == 5);
    CHECK(names[0] == dir.path().filename().string() + "/a/y.json");
    CHECK(names[4] == second.path().filename().string() + "/s.txt");
  }
  SUBCASE("a cancelled walk stops") {
    const CancelToken cancel = CancelToken::make();
    cancel.cancel();
    const ResourcePage page = list_resources(roots, 0, 10, {}, cancel);
    CHECK(page.cancelled);
    CHECK(page.entries.empty());
  }
}

TEST_CASE("resources: reading") {
  TempDir dir;
  SUBCASE("text: the file's own text, not numbered, typed by its name") {
    dir.write("notes.md", "# Title\r\n\r\nbody\n");
    const ResourceContent c = only(read(dir, "notes.md"));
    CHECK_FALSE(c.blob);
    CHECK(c.mime == "text/markdown");
    CHECK(c.text == "# Title\r\n\r\nbody\n");
    CHECK(c.meta == nlohmann::json{{"charset", "UTF-8"}, {"size", 16}, {"truncated", false}});
    dir.write("data.json", "{\"a\": 1}");
    CHECK(only(read(dir, "data.json")).mime == "application/json");
    dir.write("empty.txt", "");
    CHECK(only(read(dir, "empty.txt")).text.empty());
  }
  SUBCASE("text in other charsets is decoded, a byte-order mark dropped") {
    dir.write("latin.txt", "Gr\xFC\xDF" "e aus K\xF6ln, \x80 5 und \x93Zitat\x94 f\xFCr \xC4rger\n");
    const ResourceContent latin = only(read(dir, "latin.txt"));
    CHECK(latin.text == "Gr\xC3\xBC\xC3\x9F" "e aus K\xC3\xB6ln, \xE2\x82\xAC 5 und \xE2\x80\x9CZitat\xE2\x80\x9D "
                        "f\xC3\xBCr \xC3\x84rger\n");
    CHECK(latin.meta["charset"] == "WINDOWS-1252");
    dir.write("bom.txt", std::string("\xFF\xFEh\0i\0\n\0", 8));
    const ResourceContent utf16 = only(read(dir, "bom.txt"));
    CHECK(utf16.text == "hi\n");
    CHECK(utf16.meta["charset"] == "UTF-16LE");
  }
  SUBCASE("invalid UTF-8 becomes U+FFFD") {
    std::string content;
    for (int i = 0; i < 40; ++i) content += "caf\xC3\xA9 na\xC3\xAFve \xE2\x9C\x93\n";
    dir.write("bad.txt", content + "bad \xFF byte\n");
    const ResourceContent c = only(read(dir, "bad.txt"));
    CHECK(c.meta["charset"] == "UTF-8");
    CHECK(c.text == content + "bad \xEF\xBF\xBD byte\n");
  }
  SUBCASE("long text is cut at a line end within the limit, and says so") {
    std::string content;
    for (int i = 1; i <= 100; ++i) content += "line " + std::to_string(i) + "\n";
    dir.write("long.txt", content);
    ReadLimits limits;
    limits.text.max_output_bytes = 50;
    const ResourceContent c = only(read(dir, "long.txt", limits));
    CHECK(c.text == "line 1\nline 2\nline 3\nline 4\nline 5\nline 6\nline 7\n");
    CHECK(c.meta["truncated"] == true);
    CHECK(c.meta["next_offset"] == 8);
    CHECK(c.meta["size"] == content.size());
  }
  SUBCASE("a cut never splits a character") {
    dir.write("wide.txt", std::string(30, 'a') + "\xE2\x82\xAC\xE2\x82\xAC\xE2\x82\xAC");
    ReadLimits limits;
    limits.text.max_output_bytes = 32;
    const ResourceContent c = only(read(dir, "wide.txt", limits));
    CHECK(c.text == std::string(30, 'a'));
    CHECK(c.meta["truncated"] == true);
    CHECK(c.meta["next_offset"] == 1);
  }
  SUBCASE("a notebook is its JSON text") {
    const std::string nb = R"({"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5})";
    dir.write("n.ipynb", nb);
    const ResourceContent c = only(read(dir, "n.ipynb"));
    CHECK(c.mime == "application/x-ipynb+json");
    CHECK(c.text == nb);
  }
  SUBCASE("an image: a blob as the image reader sends it") {
    const std::string png = mcpread::test::encode_picture({}, ".png");
    REQUIRE_FALSE(png.empty());
    dir.write("p.png", png);
    const ResourceContent c = only(read(dir, "p.png"));
    CHECK(c.blob);
    CHECK(c.mime == "image/png");
    CHECK(std::string(mcpread::readers::view_of(c.data)) == png);
    CHECK(c.meta["width"] == 64);
    CHECK(c.meta["passed_through"] == true);
    CHECK_FALSE(c.meta.contains("path"));
  }
  SUBCASE("a large image is downscaled as for the tool") {
    mcpread::test::Picture big;
    big.width = 400;
    big.height = 100;
    dir.write("big.png", mcpread::test::encode_picture(big, ".png"));
    ReadLimits limits;
    limits.image.max_edge = 100;
    const ResourceContent c = only(read(dir, "big.png", limits));
    const auto decoded = mcpread::test::decode_image(std::string(mcpread::readers::view_of(c.data)));
    CHECK(decoded.width == 100);
    CHECK(c.meta["original_width"] == 400);
  }
  SUBCASE("a PDF: the document as a blob, then its text") {
    dir.write("doc.pdf", mcpread::test::text_pdf(2));
    const ResourceReadResult r = read(dir, "doc.pdf");
    REQUIRE_MESSAGE(r.status == ResourceStatus::ok, r.message);
    REQUIRE(r.contents.size() == 2);
    CHECK(r.contents[0].blob);
    CHECK(r.contents[0].mime == "application/pdf");
    CHECK(mcpread::test::inspect_pdf(std::string(mcpread::readers::view_of(r.contents[0].data))).pages == 2);
    CHECK(r.contents[0].meta["pages"] == 2);
    CHECK_FALSE(r.contents[1].blob);
    CHECK(r.contents[1].mime == "text/plain");
    CHECK(r.contents[1].text.find(mcpread::test::page_line(2)) != std::string::npos);
    CHECK(r.contents[1].meta == nlohmann::json{{"extracted_text", true}});
  }
  SUBCASE("audio: the file's bytes") {
    const std::string wav = std::string("RIFF\x24\x00\x00\x00WAVEfmt ", 16) +
                            std::string("\x10\0\0\0\1\0\1\0\x40\x1f\0\0\x40\x1f\0\0\1\0\x08\0data\0\0\0\0", 28);
    dir.write("s.wav", wav);
    const ResourceContent c = only(read(dir, "s.wav"));
    CHECK(c.blob);
    CHECK(c.mime == "audio/wav");
    CHECK(std::string(mcpread::readers::view_of(c.data)) == wav);
  }
  SUBCASE("a directory: its listing") {
    dir.write("d/one.txt", "1");
    dir.write("d/sub/two.txt", "2");
    const ResourceContent c = only(read(dir, "d"));
    CHECK(c.mime == "text/plain");
    CHECK(c.text == "Directory " + (dir.path() / "d").string() +
                        ": 2 entries (1 directory, 1 file)\none.txt\nsub/");
    CHECK(c.meta["entries"] == 2);
  }
  SUBCASE("missing files and files outside the roots are both not found") {
    dir.write("here.txt", "x");
    ResourceReadResult r = read(dir, "here.tx");
    CHECK(r.status == ResourceStatus::not_found);
    CHECK(r.message == "File not found: " + (dir.path() / "here.tx").string() +
                           ". Did you mean: " + (dir.path() / "here.txt").string() + "?");
    TempDir outside;
    outside.write("secret.txt", "x");
    r = read_resource(roots_of(dir), (outside.path() / "secret.txt").string(), {}, CancelToken{});
    CHECK(r.status == ResourceStatus::not_found);
    CHECK(r.message.rfind("Access denied: ", 0) == 0);
    if (mcpread::test::make_symlink(outside.path() / "secret.txt", dir.path() / "link")) {
      r = read(dir, "link");
      CHECK(r.status == ResourceStatus::not_found);
      CHECK(r.message.find("symbolic link that leads outside") != std::string::npos);
    }
    r = read(dir, "here.txt/below");
    CHECK(r.status == ResourceStatus::not_found);
  }
  SUBCASE("a FIFO is refused without being opened") {
#if defined(_WIN32)
    MESSAGE("skipped under Windows: its file systems hold no FIFOs (named pipes live apart, in \\\\.\\pipe\\)");
#else
    REQUIRE(::mkfifo((dir.path() / "pipe").c_str(), 0600) == 0);
    const ResourceReadResult r = read(dir, "pipe");
    CHECK(r.status == ResourceStatus::unsupported);
    CHECK(r.message == (dir.path() / "pipe").string() +
                           " is a FIFO (named pipe); only regular files and directories can be read.");
#endif
  }
  SUBCASE("other binaries are refused with their type") {
    dir.write("x.bin", std::string("\x7f" "ELF\x02\x01\x01\0\0\0\0\0\0\0\0\0", 16) + std::string(200, '\0'));
    const ResourceReadResult r = read(dir, "x.bin");
    CHECK(r.status == ResourceStatus::unsupported);
    CHECK(r.message.rfind((dir.path() / "x.bin").string() + " is a binary file (", 0) == 0);
    // Every reader that serves resources is named, from the registry.
    std::string served;
    for (const Reader& reader : reader_registry().readers())
      if (reader.resource != nullptr) served += (served.empty() ? "" : ", ") + std::string(reader.noun);
    CHECK(served.starts_with("text, images, PDFs, notebooks, audio, Word documents"));
    CHECK(r.message.find("Resources serve " + served + " and directories; other binary files cannot be read.") !=
          std::string::npos);
  }
  SUBCASE("a damaged image is a failure that names the file") {
    dir.write("broken.png", std::string("\x89PNG\r\n\x1a\n", 8) + std::string(100, 'x'));
    const ResourceReadResult r = read(dir, "broken.png");
    CHECK(r.status == ResourceStatus::failed);
    CHECK(r.message.find((dir.path() / "broken.png").string()) != std::string::npos);
  }
}
