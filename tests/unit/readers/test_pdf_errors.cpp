// read_pdf: encrypted, damaged and foreign files, progress, cancellation, concurrent reads.
#include "pdf_test_util.hpp"

#include <thread>
#include <tuple>
#include <vector>

using namespace mcpread::readers;
using namespace mcpread::test;
using namespace mcpread::test::pdf_util;

TEST_CASE("pdf: encrypted files") {
  TempDir dir;
  const std::string d = dir.path().string();
  const std::string plain = text_pdf(3, "Secret plans");
  for (const Cipher cipher : {Cipher::aes256, Cipher::aes128, Cipher::rc4_128}) {
    CAPTURE(static_cast<int>(cipher));
    SUBCASE("an empty user password just works") {
      dir.write("locked.pdf", encrypt_pdf(plain, "", "owner-secret", cipher));
      const auto o = read(dir, "locked.pdf");
      REQUIRE_FALSE(o.is_error);
      CHECK(text(o).find("\"Secret plans\", 3 pages") != std::string::npos);
      CHECK(text(o).ends_with(section(3, 3, page_line(3))));
      CHECK(o.meta["encrypted"] == true);
      const PdfSummary s = blob(o);
      REQUIRE(s.ok);
      CHECK_FALSE(s.encrypted);
      CHECK(s.pages == 3);
      CHECK((holds_page(s, 0, 1) && holds_page(s, 2, 3)));
      PdfOptions opt;
      opt.mode = PdfMode::images;
      opt.pages = "2";
      const auto r = read(dir, "locked.pdf", opt);
      REQUIRE(r.blocks.size() == 3);
      CHECK(std::holds_alternative<ImageBlock>(r.blocks[2]));
    }
    SUBCASE("a user password is refused") {
      dir.write("locked.pdf", encrypt_pdf(plain, "user-secret", "owner-secret", cipher));
      const auto o = read(dir, "locked.pdf");
      CHECK(o.is_error);
      CHECK(text(o) == d + kSep + "locked.pdf is password-protected; mcp-read cannot read it.");
    }
  }
}

TEST_CASE("pdf: files that are not readable PDFs") {
  TempDir dir;
  const std::string d = dir.path().string();
  const std::string pdf = text_pdf(5);
  SUBCASE("zero bytes") {
    dir.write("empty.pdf", "");
    const auto o = read(dir, "empty.pdf");
    CHECK(o.is_error);
    CHECK(text(o) == d + kSep + "empty.pdf is empty (0 bytes), not a PDF document.");
  }
  SUBCASE("text with a .pdf name") {
    std::string notes;
    for (int i = 0; i < 50; ++i) notes += "These are meeting notes, not a PDF.\n";
    dir.write("notes.pdf", notes);
    const auto o = read(dir, "notes.pdf");
    CHECK(o.is_error);
    CHECK(text(o).starts_with(d + kSep + "notes.pdf is not a PDF document: it has no %PDF- header in "
                                  "its first 1024 bytes; poppler: "));
  }
  SUBCASE("a header and then garbage") {
    dir.write("garbage.pdf", "%PDF-1.7\n" + random_bytes(4000) + "\n%%EOF\n");
    const auto o = read(dir, "garbage.pdf");
    CHECK(o.is_error);
    CHECK(text(o) == d + kSep + "garbage.pdf is a damaged PDF that poppler cannot open: Couldn't find "
                         "trailer dictionary; Couldn't read xref table.");
  }
  SUBCASE("truncated files") {
    const std::string cut = " (it does not end with %%EOF: it may be truncated).";
    dir.write("cut.pdf", pdf.substr(0, pdf.size() / 2));
    auto o = read(dir, "cut.pdf");
    CHECK(o.is_error);
    CHECK(text(o) == d + kSep +
                         "cut.pdf is a damaged PDF that poppler cannot open: Couldn't find "
                         "trailer dictionary; Couldn't read xref table" +
                         cut);
    dir.write("cut.pdf", pdf.substr(0, 9));
    o = read(dir, "cut.pdf");
    CHECK(text(o) == d + kSep +
                         "cut.pdf is a damaged PDF that poppler cannot open: poppler finds no "
                         "document in its 9 bytes" +
                         cut);
    for (const std::size_t keep : {std::size_t{40}, pdf.size() / 3, pdf.size() - 30}) {
      CAPTURE(keep);
      dir.write("cut.pdf", pdf.substr(0, keep));
      o = read(dir, "cut.pdf");
      if (o.is_error) {  // never a crash; an answer or a reason
        CHECK(text(o).starts_with(d + kSep + "cut.pdf is a damaged PDF that poppler cannot open: "));
        CHECK(text(o).ends_with(cut));
      } else {
        CHECK(text(o).starts_with("PDF " + d + kSep + "cut.pdf: 5 pages, "));
      }
    }
  }
}

TEST_CASE("pdf: progress and cancellation") {
  TempDir dir;
  dir.write("doc.pdf", text_pdf(3));
  std::vector<std::tuple<double, double, std::string>> calls;
  PdfOptions opt;
  opt.progress = [&](double done, double total, const std::string& message) {
    calls.emplace_back(done, total, message);
  };
  SUBCASE("one call per page") {
    const auto o = read(dir, "doc.pdf", opt);
    REQUIRE_FALSE(o.is_error);
    CHECK(calls == std::vector<std::tuple<double, double, std::string>>{
                       {1, 3, "page 1 of 3"}, {2, 3, "page 2 of 3"}, {3, 3, "page 3 of 3"}});
  }
  SUBCASE("cancelled between pages") {
    const CancelToken cancel = CancelToken::make();
    opt.progress = [&](double done, double total, const std::string& message) {
      calls.emplace_back(done, total, message);
      cancel.cancel();
    };
    for (const PdfMode mode : {PdfMode::text_and_blob, PdfMode::images}) {
      calls.clear();
      opt.mode = mode;
      const auto o = read(dir, "doc.pdf", opt, cancel);
      CHECK(o.cancelled);
      CHECK(o.is_error);
      CHECK(calls.size() <= 1);
    }
  }
}

TEST_CASE("pdf: a document without pages") {
  TempDir dir;
  const std::string pdf = make_pdf({});
  dir.write("none.pdf", pdf);
  const auto o = read(dir, "none.pdf");
  REQUIRE_FALSE(o.is_error);
  REQUIRE(o.blocks.size() == 1);
  CHECK(text(o) == "PDF " + dir.path().string() + kSep + "none.pdf: 0 pages, " + size_text(pdf.size()) +
                       ". It has no pages.");
  PdfOptions opt;
  opt.pages = "1";
  CHECK(text(read(dir, "none.pdf", opt)) == "Page 1 does not exist: the document has 0 pages.");
}

TEST_CASE("pdf: concurrent reads") {
  TempDir dir;
  for (int i = 0; i < 4; ++i) dir.write("doc" + std::to_string(i) + ".pdf", text_pdf(4 + i));
  dir.write("locked.pdf", encrypt_pdf(text_pdf(3), "", "owner"));
  std::vector<std::string> results(8);
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      PdfOptions opt;
      opt.mode = t % 3 == 0 ? PdfMode::images : PdfMode::text_and_blob;
      opt.pages = "2-3";
      const std::string name = t == 7 ? "locked.pdf" : "doc" + std::to_string(t % 4) + ".pdf";
      Roots roots;
      std::string error;
      if (!Roots::from_paths({dir.path().string()}, &roots, &error)) return;  // its result stays empty: a failure
      auto opened = open_in_roots(roots, name);
      const auto o = read_pdf(std::get<OpenedFile>(opened), opt, {});
      results[static_cast<std::size_t>(t)] =
          o.is_error ? "error" : std::to_string(o.blocks.size()) + " blocks";
    });
  }
  for (auto& th : threads) th.join();
  for (int t = 0; t < 8; ++t) {
    CAPTURE(t);
    CHECK(results[static_cast<std::size_t>(t)] == (t % 3 == 0 ? "5 blocks" : "2 blocks"));
  }
}
