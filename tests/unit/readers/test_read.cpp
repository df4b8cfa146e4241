// read_file: the orchestration from a path to the reader for its kind.
#include "fixtures.hpp"
#include "reader_fixtures.hpp"
#include "tool_wording.hpp"
#include "pdf_fixtures.hpp"

#include "mcpread/readers/read.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <string>

using namespace mcpread::readers;
using mcpread::test::kSep;
using mcpread::test::TempDir;
using mcpread::test::tool_worded;
using mcpread::test::roots_of;

namespace {

std::string text_of(const ReadOutcome& o) {
  REQUIRE_FALSE(o.blocks.empty());
  return std::get<TextBlock>(o.blocks.front()).text;
}

ReadOutcome read(const Roots& roots, const std::string& path, std::optional<FileKind> kind = {}) {
  ReadRequest request = tool_worded(ReadRequest{});  // worded as the server words hints
  request.file_path = path;
  request.forced_kind = kind;
  return read_file(roots, request, ReadLimits{}, CancelToken{});
}

const std::string png_bytes("\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x06\0\0\0", 29);

}  // namespace

TEST_CASE("read_file dispatches by kind") {
  TempDir dir;
  const Roots roots = roots_of(dir);
  const std::string d = dir.path().string();

  SUBCASE("text: numbered lines with the mime and kind in meta") {
    dir.write("a.json", "{\"a\": 1}\n");
    const auto o = read(roots, "a.json");
    CHECK_FALSE(o.is_error);
    CHECK(text_of(o) == "     1\t{\"a\": 1}\n\n[Lines 1-1 of 1. End of file.]");
    CHECK(o.meta["mime"] == "application/json");
    CHECK(o.meta["kind"] == "text");
  }
  SUBCASE("offset, limit and encoding reach the text reader") {
    dir.write("n.txt", "a\nb\nc\n");
    ReadRequest request = tool_worded(ReadRequest{});
    request.file_path = "n.txt";
    request.offset = 2;
    request.limit = 1;
    request.encoding = "latin1";
    const auto o = read_file(roots, request, ReadLimits{}, CancelToken{});
    CHECK(text_of(o) == "     2\tb\n\n[Lines 2-2 of 3. To read more, call read again with offset=3.]\n"
                        "[Decoded from WINDOWS-1252 (the decoder browsers use for latin1) to UTF-8.]");
  }
  SUBCASE("a notebook is rendered; file_type=text gives its raw JSON") {
    dir.write("nb.ipynb", R"({"cells": [{"cell_type": "markdown", "metadata": {}, "source": "# Title"}],
                             "metadata": {}, "nbformat": 4, "nbformat_minor": 5})");
    const auto o = read(roots, "nb.ipynb");
    CHECK_FALSE(o.is_error);
    CHECK(text_of(o).rfind("Notebook " + d + kSep + "nb.ipynb: 1 cell (0 code, 1 markdown, 0 raw)", 0) == 0);
    CHECK(o.meta["cells"] == 1);
    const auto raw = read(roots, "nb.ipynb", FileKind::text);
    CHECK(text_of(raw).rfind("     1\t{\"cells\"", 0) == 0);
  }
  SUBCASE("a PDF: text and subset by default, text only with file_type=text") {
    dir.write("doc.pdf", mcpread::test::text_pdf(3, "Report"));
    const auto o = read(roots, "doc.pdf");
    CHECK_FALSE(o.is_error);
    CHECK(text_of(o).rfind("PDF " + d + kSep + "doc.pdf: \"Report\", 3 pages", 0) == 0);
    REQUIRE(o.blocks.size() == 2);
    CHECK(std::get<BlobResourceBlock>(o.blocks[1]).mime_type == "application/pdf");
    ReadRequest request = tool_worded(ReadRequest{});
    request.file_path = "doc.pdf";
    request.pages = "2";
    request.forced_kind = FileKind::text;
    const auto page2 = read_file(roots, request, ReadLimits{}, CancelToken{});
    REQUIRE(page2.blocks.size() == 1);
    CHECK(text_of(page2).find("\u2500\u2500 Page 2 of 3 \u2500\u2500") != std::string::npos);
    CHECK(page2.meta["selected"] == nlohmann::json::array({2}));
  }
  SUBCASE("a truncated image is recognised by its bytes and refused, naming what it is") {
    dir.write("pic.png", png_bytes);  // a PNG signature and header, no pixel data
    const auto o = read(roots, "pic.png");
    CHECK(o.is_error);
    CHECK(text_of(o).find(d + kSep + "pic.png") != std::string::npos);
    CHECK(o.meta["mime"] == "image/png");
    CHECK(o.meta["kind"] == "image");
  }
  SUBCASE("file_type=text on an SVG gives its source, numbered like any text, never OCR") {
    const std::string svg =
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"400\" height=\"100\">\n"
        "  <text x=\"10\" y=\"60\" font-size=\"48\">Hello</text>\n"
        "</svg>\n";
    dir.write("hello.svg", svg);
    const auto image = read(roots, "hello.svg");  // read as what it is: rendered to an image
    CHECK(std::any_of(image.blocks.begin(), image.blocks.end(),
                      [](const Block& b) { return std::holds_alternative<ImageBlock>(b); }));
    const auto o = read(roots, "hello.svg", FileKind::text);
    CHECK_FALSE(o.is_error);
    CHECK(text_of(o) == "     1\t<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                        "     2\t<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"400\" height=\"100\">\n"
                        "     3\t  <text x=\"10\" y=\"60\" font-size=\"48\">Hello</text>\n"
                        "     4\t</svg>\n\n[Lines 1-4 of 4. End of file.]");
    CHECK(o.meta["kind"] == "text");
    CHECK(o.meta["mime"] == "image/svg+xml");
    CHECK_FALSE(o.meta.contains("ocr"));
  }
  SUBCASE("file_type=text on an image reads its text with OCR (test_ocr_image.cpp)") {
    dir.write("pic.png", png_bytes);
    const auto o = read(roots, "pic.png", FileKind::text);
    CHECK(o.is_error);
    CHECK(text_of(o) == d + kSep + "pic.png is a PNG image that cannot be decoded; it is probably truncated or corrupt "
                         "(not enough data).");
  }
  SUBCASE("a name that promises an image over text content") {
    dir.write("fake.jpg", "hello\n");
    const auto o = read(roots, "fake.jpg");
    CHECK(o.is_error);
    CHECK(text_of(o) == d + kSep + "fake.jpg is named like an image but is not one: its content is a "
                            "text file, ASCII text (text/plain), 6 bytes. Call read with "
                            "file_type=\"text\" to read it as text.");
  }
  SUBCASE("a damaged archive says what failed") {
    dir.write("data.gz", std::string("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03", 10) + std::string(100, '\0'));
    const auto o = read(roots, "data.gz");
    CHECK(o.is_error);
    CHECK(text_of(o) == "Cannot read the archive " + d + kSep + "data.gz: gzip decompression failed.");
    CHECK(o.meta["mime"] == "application/gzip");
    CHECK(o.meta["kind"] == "archive");
  }
  SUBCASE("a directory is listed") {
    dir.write("sub/x.txt", "x");
    const auto o = read(roots, d);
    CHECK_FALSE(o.is_error);
    CHECK(text_of(o) == "Directory " + d + ": 1 entry (1 directory, 0 files)\nsub/");
  }
  SUBCASE("a directory's page: offset and limit, the limit at most max_directory_entries") {
    for (const char* name : {"sub/a", "sub/b", "sub/c", "sub/d"}) dir.write(name, "");
    ReadRequest request = tool_worded(ReadRequest{});
    request.file_path = "sub";
    request.offset = 2;
    request.limit = 50;
    ReadLimits limits;
    limits.max_directory_entries = 2;
    const auto o = read_file(roots, request, limits, CancelToken{});
    CHECK(text_of(o) == "Directory " + d + kSep + "sub: 4 entries (0 directories, 4 files)\nb\nc\n"
                        "[Entries 2-3 of 4 entries. To list more, call read again with offset=4.]");
  }
  SUBCASE("file_type=json and column reach the text reader") {
    dir.write("one.json", R"({"key":"0123456789"})");
    ReadRequest request = tool_worded(ReadRequest{});
    request.file_path = "one.json";
    request.forced_kind = FileKind::json;
    request.offset = 2;
    request.limit = 1;
    request.column = 10;
    const auto o = read_file(roots, request, ReadLimits{}, CancelToken{});
    CHECK(text_of(o) == "     2\t\"0123456789\"\n\n"
                        "[Lines 2-2 of 3. To read more, call read again with offset=3.]\n"
                        "[Lines are shown from character 10 on.]\n"
                        "[Pretty-printed JSON: line numbers, offset and limit count these lines, "
                        "not the file's.]");
    CHECK(o.meta["kind"] == "json");
    CHECK(o.meta["mime"] == "application/json");
  }
  SUBCASE("column past 1 is refused for a notebook, even with offset") {
    dir.write("nb.ipynb", R"({"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5})");
    ReadRequest request = tool_worded(ReadRequest{});
    request.file_path = "nb.ipynb";
    request.column = 3;
    const auto o = read_file(roots, request, ReadLimits{}, CancelToken{});
    CHECK(o.is_error);
    CHECK(text_of(o) == "The \"column\" argument applies to lines of text, and " + d + kSep +
                            "nb.ipynb is a Jupyter notebook. Call read without column (or with "
                            "file_type=\"text\" to read it as text).");
    CHECK(o.meta["kind"] == "notebook");
  }
  SUBCASE("access errors pass through") {
    const auto o = read(roots, "missing.txt");
    CHECK(o.is_error);
    CHECK(text_of(o) == "File not found: " + d + kSep + "missing.txt.");
  }
  SUBCASE("no roots at all") {
    const auto o = read(Roots{}, "/etc/hostname");
    CHECK(o.is_error);
    CHECK(text_of(o) == "No directory may be read: the client's roots leave no allowed directory. "
                        "Add a root that contains the file.");
  }
  SUBCASE("a cancelled read stops") {
    dir.write("a.txt", "a\n");
    ReadRequest request = tool_worded(ReadRequest{});
    request.file_path = "a.txt";
    auto cancel = CancelToken::make();
    cancel.cancel();
    const auto o = read_file(roots, request, ReadLimits{}, cancel);
    CHECK(o.cancelled);
  }
}

namespace {

std::string be32(std::uint32_t v) {
  return {static_cast<char>(v >> 24), static_cast<char>(v >> 16), static_cast<char>(v >> 8), static_cast<char>(v)};
}

}  // namespace

// Audio in formats the tool does not send is refused as audio: what it is, what is sent, how to
// convert; never the encoding hint meant for text in an unknown charset.
TEST_CASE("read_file: refusals fit the type") {
  TempDir dir;
  const Roots roots = roots_of(dir);
  const std::string d = dir.path().string();
  const std::string sent = "): it sends WAV, MP3, FLAC, Ogg, M4A and AAC. Convert the file to one of these (for example "
                           "with ffmpeg or sox) and read that file.";
  SUBCASE("AIFF") {
    const std::string comm = std::string("\0\x01", 2) + be32(100) + std::string("\0\x10", 2) +
                             std::string("\x40\x0C\xFA\0\0\0\0\0\0\0", 10);
    const std::string ssnd = be32(0) + be32(0) + std::string(200, '\0');
    const std::string body = "AIFFCOMM" + be32(static_cast<std::uint32_t>(comm.size())) + comm + "SSND" +
                             be32(static_cast<std::uint32_t>(ssnd.size())) + ssnd;
    dir.write("a.aiff", "FORM" + be32(static_cast<std::uint32_t>(body.size())) + body);
    const auto o = read(roots, "a.aiff");
    CHECK(o.is_error);
    CHECK(text_of(o) == d + kSep + "a.aiff is audio in a format the read tool does not send (IFF data, AIFF audio "
                            "(audio/x-aiff), 254 bytes" + sent);
    CHECK(o.meta["kind"] == "binary");
  }
  SUBCASE("Sun/NeXT AU") {
    dir.write("a.au", ".snd" + be32(24) + be32(200) + be32(3) + be32(8000) + be32(1) + std::string(200, '\0'));
    CHECK(text_of(read(roots, "a.au")) ==
          d + kSep + "a.au is audio in a format the read tool does not send (Sun/NeXT audio data: 16-bit linear PCM, "
              "mono, 8000 Hz (audio/basic), 224 bytes" + sent);
  }
  SUBCASE("Creative VOC") {
    dir.write("a.voc", std::string("Creative Voice File\x1a\x1a\0\x0a\x01\x29\x11", 26) +
                           std::string("\x01\xca\0\0\x83\0", 6) + std::string(200, '\x80') + std::string(1, '\0'));
    CHECK(text_of(read(roots, "a.voc")) ==
          d + kSep + "a.voc is audio in a format the read tool does not send (Creative Labs voice data - version 1.10 "
              "(audio/x-unknown), 233 bytes" + sent);
  }
  SUBCASE("data libmagic cannot name keeps the encoding hint") {
    dir.write("blob", std::string("\x01\x02\x03\0\xff", 5) + std::string(100, '\0'));
    CHECK(text_of(read(roots, "blob")) ==
          d + kSep + "blob is a binary file (data (application/octet-stream), 105 bytes) and cannot be shown as text. "
              "If it is text in an unusual charset, call read with file_type=\"text\" and an encoding such as "
              "encoding=\"windows-1252\".");
  }
}
