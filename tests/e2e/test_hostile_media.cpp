// Hostile images, PDFs and notebooks, one SUBCASE per row, as in test_hostile_files.cpp: a fresh
// server per row, the exact answer, the server still answering, and its peak memory under a
// bound well below what the file claims to decode to.
#include "fixtures.hpp"
#include "hostile_helpers.hpp"
#include "image_fixtures.hpp"
#include "mcp_client.hpp"
#include "pdf_fixtures.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

using namespace mcpread::test;
using namespace mcpread::test::hostile;
using nlohmann::json;

namespace {

// A small JPEG whose frame header (SOF) is patched to claim width×height: the entropy-coded data
// covers 16×16 pixels only.
std::string jpeg_claiming(unsigned width, unsigned height) {
  std::string jpeg = encode_picture(Picture{16, 16, 1}, ".jpg");
  REQUIRE(jpeg.size() > 4);
  for (std::size_t i = 2; i + 9 < jpeg.size();) {
    const auto marker = static_cast<unsigned char>(jpeg[i + 1]);
    const std::size_t length = (static_cast<unsigned char>(jpeg[i + 2]) << 8) | static_cast<unsigned char>(jpeg[i + 3]);
    if (marker == 0xC0 || marker == 0xC1 || marker == 0xC2) {
      jpeg[i + 5] = static_cast<char>(height >> 8);
      jpeg[i + 6] = static_cast<char>(height & 0xFF);
      jpeg[i + 7] = static_cast<char>(width >> 8);
      jpeg[i + 8] = static_cast<char>(width & 0xFF);
      return jpeg;
    }
    i += 2 + length;
  }
  FAIL("no SOF marker in the JPEG");
  return {};
}

// A notebook of one code cell whose stream output is 100 MiB of 'x', all on one line.
void write_big_notebook(const TempDir& root) {
  std::ofstream out(root.path() / "big.ipynb", std::ios::binary);
  out << R"NB({"cells": [{"cell_type": "code", "execution_count": 1, "metadata": {}, "source": "print('x' * 10**8)", "outputs": [{"output_type": "stream", "name": "stdout", "text": [")NB";
  const std::string block(1 << 20, 'x');
  for (int i = 0; i < 100; ++i) out << block;
  out << R"("]}]}], "metadata": {}, "nbformat": 4, "nbformat_minor": 5})" << "\n";
  REQUIRE(out.good());
}

}  // namespace

TEST_CASE("hostile media: images") {
  const std::vector<Row> rows = {
      // 3.6 gigapixels claimed. JPEG shrinks on load by 8 per side, so what libvips decodes is
      // 7500×7500 (56 megapixels, under the 100-megapixel guard), streamed into a 2000-px
      // thumbnail: the server sends that, and never holds the claimed image.
      {"a JPEG whose header claims 60000x60000",
       [](const TempDir& root) {
         root.write("huge.jpg", jpeg_claiming(60000, 60000));
         return json{{"file_path", "huge.jpg"}};
       },
       [](const json& r, const TempDir& root) {
         if (r.value("isError", false)) {  // a libvips that notices the missing data refuses it
           CHECK(text_of(r).rfind((root.path() / "huge.jpg").string() + " is a JPEG image (60000\u00d760000 px) that cannot be decoded", 0) == 0);
           return;
         }
         CHECK(text_of(r).rfind("Image " + (root.path() / "huge.jpg").string() +
                                    ": JPEG, 60000\u00d760000 px, ", 0) == 0);
         CHECK(text_of(r).find("Sent as JPEG, 2000\u00d72000 px") != std::string::npos);
         CHECK(r["_meta"]["width"] == 2000);
         CHECK(r["_meta"]["scale"] == 30);
       },
       96, "a 2000x2000 thumbnail is 12 MB; the claimed image would be 3.6 GB"},
      // A decompression bomb's shape: a few hundred bytes claiming 10 gigapixels (30 GB of RGB).
      {"a PNG decompression bomb",
       [](const TempDir& root) {
         root.write("bomb.png", png_claiming(100000, 100000));
         return json{{"file_path", "bomb.png"}};
       },
       [](const json& r, const TempDir& root) {
         CHECK(r["isError"] == true);
         CHECK(text_of(r) == (root.path() / "bomb.png").string() +
                                 " is a PNG image of 100000\u00d7100000 px (10000.0 megapixels), more "
                                 "than the limit of 100 megapixels, so it was not decoded (a guard "
                                 "against decompression bombs). If the file is trusted, start "
                                 "mcp-read with a larger --image-max-pixels.");
       },
       48, "refused from its header, before decoding; decoded it would be 30 GB"},
  };
  run_rows(rows);
}

TEST_CASE("hostile media: PDFs and notebooks") {
  const std::vector<Row> rows = {
      {"a truncated PDF",
       [](const TempDir& root) {
         const std::string pdf = text_pdf(3);
         root.write("cut.pdf", pdf.substr(0, pdf.size() / 3));
         return json{{"file_path", "cut.pdf"}};
       },
       [](const json& r, const TempDir& root) {
         CHECK(r["isError"] == true);
         CHECK(text_of(r) == (root.path() / "cut.pdf").string() +
                                 " is a damaged PDF that poppler cannot open: Couldn't find trailer "
                                 "dictionary; Couldn't read xref table (it does not end with %%EOF: "
                                 "it may be truncated).");
       },
       48, "a 1 KB PDF"},
      // The default read of a 10,000-page PDF takes the first 20 pages (the per-call limit) and
      // says how to ask for more; nothing is done for the other 9,980.
      {"a PDF with 10,000 pages, default read",
       [](const TempDir& root) {
         root.write("long.pdf", text_pdf(10000));
         return json{{"file_path", "long.pdf"}};
       },
       [](const json& r, const TempDir& root) {
         CHECK_FALSE(r.contains("isError"));
         const std::string text = text_of(r);
         CHECK(text.rfind("PDF " + (root.path() / "long.pdf").string() + ": 10000 pages, ", 0) == 0);
         CHECK(text.find(". Pages 1-20 follow.") != std::string::npos);
         CHECK(text.find(page_line(20)) != std::string::npos);
         CHECK(text.find(page_line(21)) == std::string::npos);
         CHECK(text.ends_with("[Pages 21-10000 not shown; call read with pages=\"21-40\" to continue "
                              "(at most 20 pages per call).]"));
         CHECK(r["_meta"]["pages"] == 10000);
         CHECK(r["_meta"]["selected"].size() == 20);
         CHECK(r["_meta"]["next_pages"] == "21-40");
       },
       96, "poppler's page tree and 20 pages' text; the file itself is a few MB"},
      {"a PDF with 10,000 pages, a subset's text",
       [](const TempDir& root) {
         root.write("long.pdf", text_pdf(10000));
         return json{{"file_path", "long.pdf"}, {"pages", "5000,9999-10000"}, {"file_type", "text"}};
       },
       [](const json& r, const TempDir&) {
         CHECK_FALSE(r.contains("isError"));
         const std::string text = text_of(r);
         CHECK(text.find(". Pages 5000, 9999-10000 follow.") != std::string::npos);
         CHECK(text.find("\u2500\u2500 Page 5000 of 10000 \u2500\u2500\n" + page_line(5000)) != std::string::npos);
         CHECK(text.find("\u2500\u2500 Page 10000 of 10000 \u2500\u2500\n" + page_line(10000)) != std::string::npos);
         CHECK(r["_meta"]["selected"] == json::array({5000, 9999, 10000}));
         CHECK(r["content"].size() == 1);  // text only: no PDF attached
       },
       96, "three pages' text"},
      {"a PDF with 10,000 pages, too many pages asked for",
       [](const TempDir& root) {
         root.write("long.pdf", text_pdf(10000));
         return json{{"file_path", "long.pdf"}, {"pages", "1-10000"}};
       },
       [](const json& r, const TempDir&) {
         CHECK(r["isError"] == true);
         CHECK(text_of(r) == "pages=\"1-10000\" asks for 10000 pages; at most 20 per call \u2014 ask "
                             "for 1-20, then 21-40, and so on.");
       },
       96, "the page tree only; no page is read"},
      // Notebooks are parsed whole, so over 64 MB they are refused unread, with the way to read
      // the raw JSON instead (the next row takes it).
      {"a notebook with a 100 MB output",
       [](const TempDir& root) {
         write_big_notebook(root);
         return json{{"file_path", "big.ipynb"}};
       },
       [](const json& r, const TempDir& root) {
         CHECK(r["isError"] == true);
         const std::uint64_t size = r["_meta"]["size"];
         CHECK(text_of(r) == (root.path() / "big.ipynb").string() + " is 100.0 MB (" +
                                 std::to_string(size) +
                                 " bytes), over the 64.0 MB limit for notebooks, so it was not "
                                 "parsed. Call read with file_type=\"text\" (and offset/limit) to "
                                 "read the raw JSON.");
       },
       32, "refused from its size; the file is 100 MB"},
      {"a notebook with a 100 MB output, read as text",
       [](const TempDir& root) {
         write_big_notebook(root);
         return json{{"file_path", "big.ipynb"}, {"file_type", "text"}};
       },
       [](const json& r, const TempDir&) {
         CHECK_FALSE(r.contains("isError"));
         const std::string text = text_of(r);
         const std::uint64_t line = r["_meta"]["size"].get<std::uint64_t>() - 1;  // all but the "\n"
         CHECK(line > (100u << 20));
         CHECK(text.rfind("     1\t{\"cells\": [{\"cell_type\": \"code\"", 0) == 0);
         CHECK(text.find(" \u2026 [line cut at 2000 of " + std::to_string(line) +
                         " characters; read on with offset=1, limit=1, column=2001]\n") != std::string::npos);
         CHECK(text.ends_with("[Lines 1-1 of 1. End of file.]\n[1 line(s) longer than 2000 characters were cut.]"));
       },
       32, "the 100 MB line is streamed; 2000 characters of it are kept"},
  };
  run_rows(rows);
}
